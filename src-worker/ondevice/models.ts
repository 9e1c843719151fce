/**
 * On-device models: the same ONNX files the server builds (`npm run models`), served at /models/
 * (server/http/routes/models.ts, immutable) and kept by the service worker (cache pixmill-models).
 * onnxruntime-web loads only here, on first on-device use: the app shell never carries it.
 */
import type * as OrtWeb from 'onnxruntime-web';
import type { InferenceSession, Tensor } from 'onnxruntime-web';
import {
  MODEL_BYTES,
  RUNTIME_BYTES,
  WEBGPU_RUNTIME_BYTES,
  modelUrl,
  type OnDeviceModel,
} from '../../src/shared/onDeviceModels.js';
import { chooseProvider, fallBack, type ExecutionProvider, type GpuLike, type ProviderChoice } from './provider.js';

export type Progress = (p: { phase: 'download' | 'run'; loaded: number; total: number }) => void;

type Ort = typeof OrtWeb;
interface Runtime {
  ort: Ort;
  choice: ProviderChoice;
}
let runtimeP: Promise<Runtime> | undefined;
let choiceP: Promise<ProviderChoice> | undefined;

/** The device's provider, asked once per worker (no runtime loads for it). */
function deviceProvider(): Promise<ProviderChoice> {
  choiceP ??= chooseProvider((globalThis.navigator as { gpu?: GpuLike } | undefined)?.gpu);
  return choiceP;
}

/** Bytes the first use of a model downloads here: the model and the runtime of the chosen provider. */
export async function firstUseBytes(
  m: OnDeviceModel,
): Promise<{ bytes: number; provider: ExecutionProvider; reason: string }> {
  const c = await deviceProvider();
  return { bytes: MODEL_BYTES[m] + (c.provider === 'webgpu' ? WEBGPU_RUNTIME_BYTES : RUNTIME_BYTES), ...c };
}

/**
 * The runtime, once. WebGPU when the browser gives an adapter (the WebGPU build of onnxruntime-web and
 * its JSEP WASM), otherwise the WASM build: SIMD, threads when the page is cross-origin isolated (COOP/COEP).
 * Both builds are separate lazy chunks of the worker: the app shell never carries either.
 */
function runtime(): Promise<Runtime> {
  runtimeP ??= (async () => {
    const choice = { ...(await deviceProvider()) };
    const [mod, wasmUrl] =
      choice.provider === 'webgpu'
        ? await Promise.all([
            import('onnxruntime-web/webgpu'),
            import('onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url'),
          ])
        : await Promise.all([
            import('onnxruntime-web/wasm'),
            import('onnxruntime-web/ort-wasm-simd-threaded.wasm?url'),
          ]);
    const o = mod as unknown as Ort;
    o.env.wasm.wasmPaths = { wasm: new URL(wasmUrl.default, self.location.href).href };
    o.env.wasm.simd = true;
    const cores = (globalThis.navigator?.hardwareConcurrency ?? 1) | 0;
    o.env.wasm.numThreads = globalThis.crossOriginIsolated ? Math.max(1, Math.min(4, cores)) : 1;
    console.info(`on-device models run on ${choice.provider}: ${choice.reason}`);
    return { ort: o, choice };
  })();
  runtimeP.catch(() => (runtimeP = undefined));
  return runtimeP;
}

const ort = async (): Promise<Ort> => (await runtime()).ort;

/** Where the sessions run and why (after a WebGPU session failed, WASM with that reason). */
export async function providerChoice(): Promise<ProviderChoice> {
  return (await runtime()).choice;
}

/** Fetches a model with byte progress (the service worker answers from its cache after the first time). */
async function fetchModel(m: OnDeviceModel, onProgress: Progress = () => undefined): Promise<Uint8Array> {
  const res = await fetch(modelUrl(m));
  if (!res.ok || !res.body) throw new Error(`model ${m}: HTTP ${res.status}`);
  const total = Number(res.headers.get('content-length')) || MODEL_BYTES[m];
  const out = new Uint8Array(total);
  const reader = res.body.getReader();
  let loaded = 0;
  let buf = out;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (loaded + value.length > buf.length) {
      const bigger = new Uint8Array(Math.max(buf.length * 2, loaded + value.length));
      bigger.set(buf.subarray(0, loaded));
      buf = bigger;
    }
    buf.set(value, loaded);
    loaded += value.length;
    onProgress({ phase: 'download', loaded, total });
  }
  return buf.subarray(0, loaded);
}

const sessions = new Map<OnDeviceModel, Promise<InferenceSession>>();

/** One session per model per worker (Squoosh/STYLE §3: expensive setup memoised in a module promise). */
export function session(m: OnDeviceModel, onProgress?: Progress): Promise<InferenceSession> {
  let s = sessions.get(m);
  if (!s) {
    s = (async () => {
      const [rt, bytes] = await Promise.all([runtime(), fetchModel(m, onProgress)]);
      if (rt.choice.provider === 'webgpu') {
        try {
          return await rt.ort.InferenceSession.create(bytes, {
            executionProviders: ['webgpu'],
            graphOptimizationLevel: 'all',
          });
        } catch (e) {
          // The WebGPU build carries the WASM provider too: the device goes on there, and says why.
          rt.choice = fallBack(rt.choice, e);
          console.warn(`on-device models fall back to wasm: ${rt.choice.reason}`);
        }
      }
      return rt.ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
    })();
    s.catch(() => sessions.delete(m));
    sessions.set(m, s);
  }
  return s;
}

export async function tensor(data: Float32Array, dims: number[]): Promise<Tensor> {
  const o = await ort();
  return new o.Tensor('float32', data, dims);
}
