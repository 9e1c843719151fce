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
  quantization?: unknown;
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
      if (w.quantization) throw new Error(`quantized weight ${w.name} is not supported`);
      if (w.dtype !== 'float32' && w.dtype !== 'int32') throw new Error(`weight dtype ${w.dtype} is not supported`);
      const n = w.shape.reduce((a, b) => a * b, 1);
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
