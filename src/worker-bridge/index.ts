/**
 * The UI's only way to the image worker (Squoosh's worker-bridge practice). The worker's lifecycle is
 * in ./worker.ts (one worker per page, stopped when idle, main-thread fallback), the upload queue in
 * ./uploadQueue.ts (lanes, resume), its batch rules in ./batch.ts and offline parking in
 * ./networkWait.ts; here: the calls of the simple tools and of on-device processing.
 */
import * as Comlink from 'comlink';
import type { ImageWorkerApi } from '../../src-worker/index.js';
import type { EditOp, EditResult } from '../../src-worker/editImage.js';
import { firstUseBytesOnWasm } from '../shared/onDeviceModels.js';
import { ON_DEVICE_FEATURES, type OnDeviceFeature, type OnDeviceOptions } from '../shared/domain/onDevice.js';
import { sharedWorker, type Started } from './worker.js';

export type { ImageWorkerApi, EditOp, EditResult };
/** What the UI hears about one upload; defined once, beside the pipeline that emits it. */
export type { UploadEvent } from '../../src-worker/pipeline.js';
export {
  getUploadManager,
  type AddContext,
  type AddResult,
  type UploadManager,
  type UploadManagerOptions,
} from './uploadQueue.js';
export { OFFLINE_RETRY_MS, UPLOAD_SYNC_TAG } from './networkWait.js';
export { WORKER_IDLE_MS } from './worker.js';

let held = false;
/**
 * The image worker's API itself, for the test harness and benchmarks: the page's shared worker, held
 * from the first call on (their calls run outside any other hold).
 */
export function imageWorker(forceMainThread = false): Promise<Started> {
  const w = sharedWorker(forceMainThread);
  if (!held) {
    held = true;
    w.hold();
  }
  return w.get();
}

/** The simple tools' one call: runs in the shared image worker (main-thread fallback), says where it ran. */
export function editImage(file: Blob, op: EditOp): Promise<EditResult & { runtime: 'worker' | 'main' }> {
  return sharedWorker().run(async ({ api, runtime }) => ({ ...(await api.editImage(file, op)), runtime }));
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
) {
  return sharedWorker().run(({ api, runtime }) => {
    const cb = onProgress ? (runtime === 'worker' ? Comlink.proxy(onProgress) : onProgress) : undefined;
    return api.processOnDevice(feature, source, cb, options);
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
