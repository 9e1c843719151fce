/**
 * Runs a work kept on this device through the image worker (src-worker/ondevice): no upload, no
 * transform request, no credits. The result is stored beside the source (IndexedDB) and the work
 * finishes like a server result: it shows in Processed, previews and downloads from the device.
 */
import { getUploadItem, putDeviceResult } from '../db/index.js';
import { onDeviceJob, onDeviceOptions, resultName } from '../shared/domain/onDevice.js';
import type { Work } from '../shared/domain/work.js';
import { processOnDevice } from '../worker-bridge/index.js';

export interface DeviceRunDeps {
  update(cid: string, patch: Partial<Work>): void;
  setProgress(cid: string, value: number): void;
  finish(cid: string, patch: Partial<Work>): void;
  exists(cid: string): boolean;
  /** aborted when the card is deleted: the worker stops the run (src-worker/cancel.ts) */
  signal?: AbortSignal;
}

export async function runOnDevice(work: Work, deps: DeviceRunDeps): Promise<void> {
  const job = onDeviceJob((work.params ?? { job: work.operation ?? '' }) as Parameters<typeof onDeviceJob>[0]);
  if (!job.ok) return void deps.update(work.cid, { status: 'processFailed', endTime: Date.now() });
  try {
    const res = await processOnDevice(
      job.feature,
      work.cid,
      (p) => deps.setProgress(work.cid, Math.min(99, Math.round((p.loaded / p.total) * 100))),
      onDeviceOptions(job),
      deps.signal,
    );
    if (!deps.exists(work.cid)) return; // deleted meanwhile
    await putDeviceResult(work.cid, res.blob);
    const source = (await getUploadItem(work.cid))?.bytes;
    deps.finish(work.cid, {
      ...(source ? { originImg: URL.createObjectURL(source) } : {}),
      targetImg: URL.createObjectURL(res.blob),
      zoomW: res.w,
      zoomH: res.h,
      targetName: resultName(work.filename, job.feature, res.blob.type),
    });
  } catch (e) {
    if (deps.signal?.aborted) return; // the card was deleted: the worker stopped
    console.warn('on-device processing failed', e);
    deps.update(work.cid, { status: 'processFailed', endTime: Date.now() });
  }
}
