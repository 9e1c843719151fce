/**
 * On-device models: the same ONNX files the server builds (`npm run models`), served at /models/
 * (server/http/routes/models.ts, immutable) and kept by the service worker (cache pixmill-models).
 * onnxruntime-web loads only here, on first on-device use: the app shell never carries it.
 */
import type * as OrtWeb from 'onnxruntime-web';
import type { InferenceSession, Tensor } from 'onnxruntime-web';

export type OnDeviceModel = 'esrgan-slim-x2' | 'isnet-small';

/** Download sizes shown before the first use (bytes; the ort-web WASM runtime comes on top). */
export const MODEL_BYTES: Record<OnDeviceModel, number> = {
  'esrgan-slim-x2': 895_141,
  'isnet-small': 44_342_436,
};
/** ort-wasm-simd-threaded.wasm of onnxruntime-web 1.30 */
export const RUNTIME_BYTES = 14_239_897;

export const modelUrl = (m: OnDeviceModel) => `/models/${m}.onnx`;

export type Progress = (p: { phase: 'download' | 'run'; loaded: number; total: number }) => void;

type Ort = typeof OrtWeb;
let ortP: Promise<Ort> | undefined;

/** The runtime, once: WASM SIMD, threads when the page is cross-origin isolated (COOP/COEP). */
export function ort(): Promise<Ort> {
  ortP ??= (async () => {
    const [mod, wasmUrl] = await Promise.all([import('onnxruntime-web/wasm'), import('onnxruntime-web/ort-wasm-simd-threaded.wasm?url')]);
    const o = mod as unknown as Ort;
    o.env.wasm.wasmPaths = { wasm: new URL(wasmUrl.default, self.location.href).href };
    o.env.wasm.simd = true;
    const cores = (globalThis.navigator?.hardwareConcurrency ?? 1) | 0;
    o.env.wasm.numThreads = globalThis.crossOriginIsolated ? Math.max(1, Math.min(4, cores)) : 1;
    return o;
  })();
  ortP.catch(() => (ortP = undefined));
  return ortP;
}

/** Fetches a model with byte progress (the service worker answers from its cache after the first time). */
export async function fetchModel(m: OnDeviceModel, onProgress: Progress = () => undefined): Promise<Uint8Array> {
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
      const [o, bytes] = await Promise.all([ort(), fetchModel(m, onProgress)]);
      return o.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
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
