/** The worker's API: plain functions, so the bridge can also run them on the main thread. */
import { resumableUploads, discardUpload, getUploadItem, pendingOriginals } from '../src/db/index.js';
import { editImage } from './editImage.js';
import { checkBatch } from './limits.js';
import {
  abortUpload,
  keepOriginal,
  prepareUpload,
  runUpload,
  type Emit,
  type PrepareRequest,
  type UploadTargetBase,
} from './pipeline.js';
import { validateFile } from './validate.js';
import * as onDevice from './ondevice/index.js';
import { cancellable, cancelRun, stopAtNextReport } from './cancel.js';

export const api = {
  ping: async (): Promise<'pong'> => 'pong',
  validate: (file: File) => validateFile(file),
  checkBatch: async (...args: Parameters<typeof checkBatch>) => checkBatch(...args),
  /** Stores a picked file before it is prepared (false: the browser would not keep it). */
  keepOriginal,
  /** Picked files a reload interrupted while they were prepared, with their bytes. */
  pendingOriginals: () => pendingOriginals(),
  prepare: (req: PrepareRequest, emit: Emit) => prepareUpload(req, emit),
  upload: (cid: string, base: UploadTargetBase, emit: Emit, parkOnNetworkError?: boolean) =>
    runUpload(cid, base, emit, parkOnNetworkError),
  abort: async (cid: string) => abortUpload(cid),
  discard: (cid: string) => discardUpload(cid),
  /** The simple tools (crop/resize/rotate/flip), off the UI thread; `runId` lets cancel() stop it. */
  editImage: (file: Blob, op: Parameters<typeof editImage>[1], runId?: number) =>
    cancellable(runId, (signal) => editImage(file, op, signal)),
  /** Stops the run `runId` of editImage or processOnDevice (src-worker/cancel.ts). */
  cancel: async (runId: number) => cancelRun(runId),
  /** On-device processing (onnxruntime-web loads on the first call): a file, or a stored upload item by cid. */
  async processOnDevice(
    feature: onDevice.OnDeviceFeature,
    source: Blob | string,
    onProgress?: (p: { phase: string; loaded: number; total: number }) => void,
    options: onDevice.OnDeviceOptions = {},
    runId?: number,
  ) {
    return cancellable(runId, async (signal) => {
      const blob = typeof source === 'string' ? (await getUploadItem(source))?.bytes : source;
      if (!blob) throw new Error('no stored image for this work');
      signal.throwIfAborted();
      const report = stopAtNextReport(signal, onProgress);
      const res = await (feature === 'enlarge'
        ? onDevice.enlarge2x(blob, report, options.enlarge)
        : feature === 'matting'
          ? onDevice.removeBackground(blob, report)
          : onDevice.compress(blob, options.quality));
      signal.throwIfAborted();
      return res;
    });
  },
  /** Download size of a feature's first on-device use and the provider it will run on (nothing loads). */
  onDeviceFirstUse: (feature: onDevice.OnDeviceFeature) => onDevice.firstUse(feature),
  /** Stored uploads a reload interrupted, without their bytes (those stay in the worker). */
  async resumable() {
    return (await resumableUploads()).map(({ bytes, ...rest }) => ({ ...rest, bytes: bytes.size }));
  },
};
