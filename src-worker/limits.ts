/** Batch limits of spec §5/§6/§9 for one drop or file-input selection. */
import { BATCH_INPUT_MAX, UPLOAD_PER_TYPE_MAX } from '../src/shared/domain/constants.js';
import { limitsFor, uploadQueueMax, type Level } from '../src/shared/domain/plans.js';

export const COMPRESS_JOB = 'compress';

export interface BatchContext {
  level: Level;
  job: string;
  /** uploads not finished yet (queued or in flight) */
  queued: number;
  /** works of this feature type already in the list */
  perTypeCount: number;
}

export type BatchError = 'upload:tooManyFiles' | 'upload:onlyPaidMultiple' | 'upload:queueFull';

/** Per-type cap: 10, or for compress the plan's compress allowance (spec §5 "the compress limit"). */
export function perTypeLimit(level: Level, job: string): number {
  return job === COMPRESS_JOB ? limitsFor(level).compressCredits : UPLOAD_PER_TYPE_MAX;
}

/**
 * Decides how many of `count` dropped files may enter the upload queue.
 * Batch-level refusals (nothing accepted) come back in `error`; when only the queue is short,
 * the first `accept` files go in and the rest are refused one by one with upload:queueFull.
 */
export function checkBatch(count: number, ctx: BatchContext): { accept: number; error?: BatchError } {
  if (count <= 0) return { accept: 0 };
  if (count > BATCH_INPUT_MAX) return { accept: 0, error: 'upload:tooManyFiles' };
  const batch = limitsFor(ctx.level).batch;
  if (count > batch) return { accept: 0, error: batch === 1 ? 'upload:onlyPaidMultiple' : 'upload:tooManyFiles' };
  if (ctx.perTypeCount + count > perTypeLimit(ctx.level, ctx.job)) return { accept: 0, error: 'upload:tooManyFiles' };
  // The queue holds 5 (spec §5), or the plan's batch when larger: Pro's 10 at once all go in (spec §6).
  const room = Math.max(0, uploadQueueMax(ctx.level) - ctx.queued);
  if (room === 0) return { accept: 0, error: 'upload:queueFull' };
  return { accept: Math.min(count, room) };
}
