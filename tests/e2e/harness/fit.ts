/**
 * The harness's `fit`: decode + fit + thumbnail of one picked file for a plan, without storing or uploading,
 * made of the shipped worker's own pieces (the same calls prepareUpload makes). The e2e proof that a photo
 * fits its plan (upload-guest.spec.ts) and the client benchmark (bench/client.ts) call it, in the harness's
 * worker (fitWorker.ts) or, with `?main=1`, on the page.
 */
import { limitsFor, type Level } from '../../../src/shared/domain/plans.js';
import { canvasOps, decodeForFit, makeThumbnail } from '../../../src-worker/canvasOps.js';
import { fitToPlan } from '../../../src-worker/fitPlan.js';

export async function fit(file: File, level: Level, job: string) {
  const t0 = performance.now();
  const limits = limitsFor(level);
  const { img, w: srcW, h: srcH } = await decodeForFit(file, limits, job);
  const mime = file.type === 'image/png' ? 'image/png' : 'image/jpeg';
  const fitted = await fitToPlan({ blob: file, mime, img, w: srcW, h: srcH }, limits, job, canvasOps);
  if (!fitted.ok) return { ok: false as const, error: fitted.error, steps: fitted.steps, ms: performance.now() - t0 };
  await makeThumbnail(fitted.img);
  return {
    ok: true as const,
    srcW,
    srcH,
    w: fitted.w,
    h: fitted.h,
    bytes: fitted.blob.size,
    mime: fitted.mime,
    steps: fitted.steps,
    ms: performance.now() - t0,
  };
}
