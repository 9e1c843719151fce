/**
 * Which dropped files a batch takes (spec §5/§9): the plan's batch and queue limits, a plan that takes
 * one image at a time keeping the first of several, each file's validation, and compress's size limit.
 */
import { limitsFor, type Level } from '../shared/domain/plans.js';
import { sanitizeFilename } from '../shared/domain/filename.js';
import { ON_DEVICE_LEVEL } from '../shared/domain/onDevice.js';
import { COMPRESS_JOB } from '../../src-worker/limits.js';
import type { Api } from './worker.js';

export interface BatchContext {
  level: Level;
  job: string;
  queued: number;
  perTypeCount: number;
  keepOnDevice?: boolean;
}

export interface Admitted {
  /** files that pass, with their sanitized names */
  accepted: { file: File; filename: string }[];
  rejected: { filename: string; error: string }[];
  error?: string;
}

export async function admit(api: Api, files: File[], ctx: BatchContext): Promise<Admitted> {
  const { keepOnDevice, ...limits } = ctx;
  let check = await api.checkBatch(files.length, limits);
  // A plan that takes one image at a time keeps the first of several and says why the rest were
  // left out (the batch reason, then each name), instead of losing them all.
  let leftOut: File[] = [];
  if (check.error === 'upload:onlyPaidMultiple' && files.length > 1) {
    const one = await api.checkBatch(1, limits);
    if (!one.error) {
      leftOut = files.slice(1);
      files = files.slice(0, 1);
      check = { ...one, error: check.error };
    }
  }
  if (check.error && !leftOut.length) {
    return {
      accepted: [],
      rejected: files.map((f) => ({ filename: sanitizeFilename(f.name), error: check.error! })),
      error: check.error,
    };
  }
  const out: Admitted = {
    accepted: [],
    rejected: leftOut.map((f) => ({ filename: sanitizeFilename(f.name), error: 'upload:firstKept' })),
  };
  if (check.error) out.error = check.error;
  const compressMax = limitsFor(keepOnDevice ? ON_DEVICE_LEVEL : ctx.level).compressMaxBytes;
  for (const [i, file] of files.entries()) {
    if (i >= check.accept) {
      out.rejected.push({ filename: sanitizeFilename(file.name), error: 'upload:queueFull' });
      continue;
    }
    const v = await api.validate(file);
    if (!v.ok) out.rejected.push({ filename: v.filename, error: v.error });
    // Spec §5: refused outright, nothing is uploaded.
    else if (ctx.job === COMPRESS_JOB && file.size > compressMax)
      out.rejected.push({ filename: v.filename, error: 'upload:fileTooLarge' });
    else out.accepted.push({ file, filename: v.filename });
  }
  return out;
}
