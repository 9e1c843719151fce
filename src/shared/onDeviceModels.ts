/**
 * Facts about the on-device models that the UI shows and the worker uses: which model each on-device
 * feature downloads, where it is served and how many bytes the first use costs. The worker's runtime
 * (src-worker/ondevice/models.ts) loads them; the UI reads only these figures.
 */
import { OWN_NETS, OWN_X2_BYTES } from './imaging/netFiles.js';

export type OnDeviceModel = typeof OWN_NETS.x2Small | 'isnet-small';

/** Download sizes shown before the first use (bytes; the ort-web WASM runtime comes on top). */
export const MODEL_BYTES: Record<OnDeviceModel, number> = {
  [OWN_NETS.x2Small]: OWN_X2_BYTES,
  'isnet-small': 44_342_436,
};
/** ort-wasm-simd-threaded.wasm of onnxruntime-web 1.30 (the WebGPU build's asyncify WASM is 26.8 MB) */
export const RUNTIME_BYTES = 14_239_897;
export const WEBGPU_RUNTIME_BYTES = 26_781_914;

/** The model each on-device feature downloads (compress uses the browser's encoder: none). */
export const FEATURE_MODEL: Record<'enlarge' | 'matting', OnDeviceModel> = {
  enlarge: OWN_NETS.x2Small,
  matting: 'isnet-small',
};

/** What the first use of a feature downloads on the WASM runtime: the figure shown before the device is asked. */
export function firstUseBytesOnWasm(feature: keyof typeof FEATURE_MODEL | 'compress'): number {
  return feature === 'compress' ? 0 : MODEL_BYTES[FEATURE_MODEL[feature]] + RUNTIME_BYTES;
}

export const modelUrl = (m: OnDeviceModel) => `/models/${m}.onnx`;
