/**
 * The UI's only way to the image worker (Squoosh's worker-bridge practice). The worker's lifecycle is
 * in ./worker.ts (one worker per page, stopped when idle, main-thread fallback), the upload queue in
 * ./uploadQueue.ts (lanes, resume), its batch rules in ./batch.ts and offline parking in
 * ./networkWait.ts; here: the calls of the simple tools and of on-device processing.
 */
import * as Comlink from 'comlink';
import type { EditOp, EditResult } from '../../src-worker/editImage.js';
import { firstUseBytesOnWasm } from '../shared/onDeviceModels.js';
import { ON_DEVICE_FEATURES, type OnDeviceFeature, type OnDeviceOptions } from '../shared/domain/onDevice.js';
import { sharedWorker, type Api } from './worker.js';

export type { EditOp, EditResult };
/** What the UI hears about one upload; defined once, beside the pipeline that emits it. */
export type { UploadEvent } from '../../src-worker/pipeline.js';
export { getUploadManager, type UploadManager } from './uploadQueue.js';
export { UPLOAD_SYNC_TAG } from './networkWait.js';

let runIds = 0;
/**
 * A worker call the caller can cancel: `signal`'s abort answers at once (AbortError) and tells the
 * worker to stop the run (src-worker/cancel.ts), which it does between steps or at its next progress report.
 */
function cancellableCall<T>(
  signal: AbortSignal | undefined,
  api: Api,
  call: (runId: number) => Promise<T>,
): Promise<T> {
  signal?.throwIfAborted();
  const runId = ++runIds;
  if (!signal) return call(runId);
  const stop = () => void api.cancel(runId);
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      stop();
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([call(runId), aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/** The simple tools' one call: runs in the shared image worker (main-thread fallback), says where it ran; `signal` cancels it. */
export function editImage(
  file: Blob,
  op: EditOp,
  signal?: AbortSignal,
): Promise<EditResult & { runtime: 'worker' | 'main' }> {
  return sharedWorker().run(async ({ api, runtime }) => ({
    ...(await cancellableCall(signal, api, (runId) => api.editImage(file, op, runId))),
    runtime,
  }));
}

export type { OnDeviceFeature };
export interface OnDeviceProgress {
  phase: string;
  loaded: number;
  total: number;
}

/**
 * "Process on this device": runs in the shared image worker (onnxruntime-web and the model load on
 * first use); `source` is a file or the cid of a work whose fitted bytes are stored on this device.
 */
export function processOnDevice(
  feature: OnDeviceFeature,
  source: Blob | string,
  onProgress?: (p: OnDeviceProgress) => void,
  options: OnDeviceOptions = {},
  signal?: AbortSignal,
) {
  return sharedWorker().run(({ api, runtime }) => {
    const cb = onProgress ? (runtime === 'worker' ? Comlink.proxy(onProgress) : onProgress) : undefined;
    return cancellableCall(signal, api, (runId) => api.processOnDevice(feature, source, cb, options, runId));
  });
}

/** What the first on-device use of a feature downloads on this device (WebGPU or WASM runtime) and where it runs. */
export function onDeviceFirstUse(
  feature: OnDeviceFeature,
): Promise<{ bytes: number; provider: string; reason: string }> {
  return sharedWorker().run(({ api }) => api.onDeviceFirstUse(feature));
}

/** Bytes to download before the first on-device use of a feature on the WASM runtime (model + runtime), before the device is asked: the worker's own figures. */
export const ON_DEVICE_DOWNLOAD_BYTES = Object.fromEntries(
  ON_DEVICE_FEATURES.map((f) => [f, firstUseBytesOnWasm(f)]),
) as Record<OnDeviceFeature, number>;
