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
