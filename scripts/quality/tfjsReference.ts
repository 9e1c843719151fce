/**
 * Reference runs of the original TF.js models on tfjs-backend-wasm (devDependencies only):
 * the converter parity test and the ORT-vs-tfjs benchmark use it; production never does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import * as tfc from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { transpose, type Tensor } from '../../server/engines/convert/tfeval.js';

const require = createRequire(import.meta.url);
let ready: Promise<void> | undefined;

export function tfjsWasm(threads = 1): Promise<typeof tf> {
  ready ??= (async () => {
    const dist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
    setWasmPaths(dist.endsWith(path.sep) ? dist : dist + path.sep);
    if (threads > 1) (await import('@tensorflow/tfjs-backend-wasm')).setThreadsCount(threads);
    await tf.setBackend('wasm');
    await tf.ready();
  })();
  return ready.then(() => tf);
}

function artifacts(modelJsonPath: string): tf.io.ModelArtifacts {
  const json = JSON.parse(readFileSync(modelJsonPath, 'utf8'));
  const dir = path.dirname(modelJsonPath);
  const specs = json.weightsManifest.flatMap((g: { weights: unknown[] }) => g.weights);
  const data = Buffer.concat(
    json.weightsManifest.flatMap((g: { paths: string[] }) => g.paths.map((p) => readFileSync(path.join(dir, p)))),
  );
  return {
    modelTopology: json.modelTopology,
    weightSpecs: specs,
    weightData: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
    format: json.format,
    userDefinedMetadata: json.userDefinedMetadata,
  };
}

let customRegistered = false;
/** ESRGAN-thick's custom layers, as defined by @upscalerjs (MultiplyBeta, PixelShuffleNx). */
function registerThickLayers(): void {
  if (customRegistered) return;
  customRegistered = true;
  class MultiplyBeta extends tfl.layers.Layer {
    static className = 'MultiplyBeta';
    constructor() {
      super({});
    }
    override call(inputs: tf.Tensor | tf.Tensor[]) {
      return tf.mul(Array.isArray(inputs) ? inputs[0]! : inputs, 0.2);
    }
  }
  tf.serialization.registerClass(MultiplyBeta);
  for (const s of [2, 3, 4, 8]) {
    const C = class extends tfl.layers.Layer {
      static className = `PixelShuffle${s}x`;
      constructor() {
        super({});
      }
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      override computeOutputShape(shape: any): any {
        return [shape[0], shape[1], shape[2], 3];
      }
      override call(inputs: tf.Tensor | tf.Tensor[]) {
        return tf.depthToSpace((Array.isArray(inputs) ? inputs[0]! : inputs) as tf.Tensor4D, s, 'NHWC');
      }
    };
    tf.serialization.registerClass(C);
  }
}

export async function loadLayersReference(modelJsonPath: string): Promise<tfl.LayersModel> {
  await tfjsWasm();
  registerThickLayers();
  return tfl.loadLayersModel(tf.io.fromMemory(artifacts(modelJsonPath)));
}

export async function loadGraphReference(modelJsonPath: string): Promise<tfc.GraphModel> {
  await tfjsWasm();
  return tfc.loadGraphModel(tf.io.fromMemory(artifacts(modelJsonPath)));
}

/** Two-operand einsum in plain JS: operands transposed to [batch, free, contracted], one batched matmul. */
export function einsumJs(eq: string, a: Tensor, b: Tensor): Tensor {
  const [lhs, out] = eq.split('->') as [string, string];
  const [ea, eb] = lhs.split(',') as [string, string];
  const dim = new Map<string, number>();
  [...ea].forEach((c, i) => dim.set(c, a.shape[i]!));
  [...eb].forEach((c, i) => dim.set(c, b.shape[i]!));
  const batch = [...out].filter((c) => ea.includes(c) && eb.includes(c));
  const freeA = [...out].filter((c) => ea.includes(c) && !eb.includes(c));
  const freeB = [...out].filter((c) => eb.includes(c) && !ea.includes(c));
  const contract = [...ea].filter((c) => eb.includes(c) && !out.includes(c));
  const prod = (cs: string[]) => cs.reduce((p, c) => p * dim.get(c)!, 1);
  const at = transpose(
    a,
    [...batch, ...freeA, ...contract].map((c) => ea.indexOf(c)),
  ).data;
  const bt = transpose(
    b,
    [...batch, ...contract, ...freeB].map((c) => eb.indexOf(c)),
  ).data;
  const [B, M, K, N] = [prod(batch), prod(freeA), prod(contract), prod(freeB)];
  const r = new Float32Array(B * M * N);
  for (let q = 0; q < B; q++)
    for (let i = 0; i < M; i++) {
      const ro = (q * M + i) * N;
      for (let k = 0; k < K; k++) {
        const av = at[(q * M + i) * K + k]!;
        const bo = (q * K + k) * N;
        for (let j = 0; j < N; j++) r[ro + j]! += av * bt[bo + j]!;
      }
    }
  const order = [...batch, ...freeA, ...freeB];
  const res = { shape: order.map((c) => dim.get(c)!), dtype: 'float32' as const, data: r };
  return transpose(
    res,
    [...out].map((c) => order.indexOf(c)),
  );
}

let einsumRegistered = false;
/** tfjs-backend-wasm has no Einsum kernel; this one (einsumJs) lets it run the MAXIM graphs as a reference. */
export function registerWasmEinsum(): void {
  if (einsumRegistered) return;
  einsumRegistered = true;
  tf.registerKernel({
    kernelName: 'Einsum',
    backendName: 'wasm',
    kernelFunc: ({ inputs, attrs, backend }) => {
      const wasm = backend as tf.KernelBackend & {
        makeOutput(s: number[], d: string, o?: number, v?: tf.TypedArray): tf.TensorInfo;
        readSync(id: object): tf.TypedArray;
      };
      const [a, b] = Object.values(inputs) as tf.TensorInfo[];
      const t = (x: tf.TensorInfo): Tensor => ({
        shape: x.shape,
        dtype: 'float32',
        data: Float32Array.from(wasm.readSync(x.dataId) as Float32Array),
      });
      const r = einsumJs(String(attrs?.equation), t(a!), t(b!));
      return wasm.makeOutput(r.shape, 'float32', undefined, r.data as Float32Array);
    },
  });
}
