/** Reads the weights of a TF.js model (model.json + binary shards) into named typed arrays. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface TfjsWeight {
  shape: number[];
  dtype: 'float32' | 'int32';
  data: Float32Array | Int32Array;
}

interface ManifestEntry {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { dtype: string };
}

/** IEEE 754 half → float (float16-quantised weights, e.g. facemesh). */
function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped model JSON
export function readTfjsModel(modelJsonPath: string): { json: any; weights: Map<string, TfjsWeight> } {
  const json = JSON.parse(readFileSync(modelJsonPath, 'utf8'));
  const dir = path.dirname(modelJsonPath);
  const weights = new Map<string, TfjsWeight>();
  for (const group of json.weightsManifest as { paths: string[]; weights: ManifestEntry[] }[]) {
    const buf = Buffer.concat(group.paths.map((p) => readFileSync(path.join(dir, p))));
    let offset = 0;
    for (const w of group.weights) {
      if (w.dtype !== 'float32' && w.dtype !== 'int32') throw new Error(`weight dtype ${w.dtype} is not supported`);
      const n = w.shape.reduce((a, b) => a * b, 1);
      if (w.quantization) {
        if (w.quantization.dtype !== 'float16' || w.dtype !== 'float32')
          throw new Error(`quantized weight ${w.name} (${w.quantization.dtype}) is not supported`);
        const data = new Float32Array(n);
        for (let i = 0; i < n; i++) data[i] = halfToFloat(buf.readUInt16LE(offset + 2 * i));
        weights.set(w.name, { shape: w.shape, dtype: 'float32', data });
        offset += n * 2;
        continue;
      }
      const bytes = buf.subarray(offset, offset + n * 4);
      const copy = new ArrayBuffer(n * 4);
      new Uint8Array(copy).set(bytes);
      weights.set(w.name, {
        shape: w.shape,
        dtype: w.dtype,
        data: w.dtype === 'float32' ? new Float32Array(copy) : new Int32Array(copy),
      });
      offset += n * 4;
    }
  }
  return { json, weights };
}
