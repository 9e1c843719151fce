/**
 * What the CPU could do and what a model asks of it: fp32 peak from /proc/cpuinfo (flags and MHz,
 * read at run time: the machine type varies) and the FLOPs of an ESRGAN Keras model per input pixel.
 */
import fs from 'node:fs';
import os from 'node:os';

export interface CpuPeak {
  /** fp32 FLOPs per cycle per core: FMA lanes × 2 (multiply + add) × FMA units */
  flopsPerCycle: number;
  mhz: number;
  isa: string;
  /** GFLOP/s for `cores` cores */
  gflops(cores: number): number;
}

export function cpuPeak(
  cpuinfo = fs.existsSync('/proc/cpuinfo') ? fs.readFileSync('/proc/cpuinfo', 'utf8') : '',
): CpuPeak {
  const flags = new Set((/^flags\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? '').split(/\s+/));
  const mhzs = [...cpuinfo.matchAll(/^cpu MHz\s*:\s*([\d.]+)/gm)].map((m) => Number(m[1]));
  const mhz = mhzs.length ? Math.max(...mhzs) : (os.cpus()[0]?.speed ?? 0);
  // Two FMA ports per core on the x86 server cores this runs on (Skylake-SP and later, Zen 2+).
  const [isa, flopsPerCycle] =
    flags.has('avx512f') && flags.has('fma')
      ? ['avx512f+fma', 16 * 2 * 2]
      : flags.has('avx2') && flags.has('fma')
        ? ['avx2+fma', 8 * 2 * 2]
        : flags.has('avx')
          ? ['avx', 8 * 2]
          : ['sse', 4 * 2];
  return { flopsPerCycle, mhz, isa, gflops: (cores) => (cores * mhz * 1e6 * flopsPerCycle) / 1e9 };
}

interface KerasLayer {
  class_name: string;
  name: string;
  config: { filters?: number; kernel_size?: number[]; size?: number[] };
  inbound_nodes: [string, ...unknown[]][][];
}

/** Multiply-adds × 2 of every Conv2D, per pixel of the model's input (UpSampling2D multiplies the area). */
export function kerasFlopsPerInputPixel(modelJson: string): number {
  const m = JSON.parse(fs.readFileSync(modelJson, 'utf8')) as {
    modelTopology: { model_config?: { config: { layers: KerasLayer[] } }; config?: { layers: KerasLayer[] } };
  };
  const layers = (m.modelTopology.model_config ?? m.modelTopology).config!.layers;
  const ch = new Map<string, number>();
  const area = new Map<string, number>();
  let flops = 0;
  for (const l of layers) {
    const ins = (l.inbound_nodes[0] ?? []).map((n) => n[0]);
    const a = ins.length ? area.get(ins[0]!)! : 1;
    const cin = ins.map((n) => ch.get(n)!);
    switch (l.class_name) {
      case 'InputLayer':
        ch.set(l.name, 3);
        area.set(l.name, 1);
        continue;
      case 'Conv2D': {
        const [kh, kw] = l.config.kernel_size ?? [3, 3];
        flops += 2 * kh! * kw! * cin[0]! * l.config.filters! * a;
        ch.set(l.name, l.config.filters!);
        break;
      }
      case 'Concatenate':
        ch.set(
          l.name,
          cin.reduce((x, y) => x + y, 0),
        );
        break;
      case 'UpSampling2D': {
        const [sh, sw] = l.config.size ?? [2, 2];
        ch.set(l.name, cin[0]!);
        area.set(l.name, a * sh! * sw!);
        continue;
      }
      default:
        ch.set(l.name, cin[0]!);
    }
    area.set(l.name, a);
  }
  return flops;
}
