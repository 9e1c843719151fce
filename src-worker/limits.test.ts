import { describe, expect, it } from 'vitest';
import { BATCH_INPUT_MAX, UPLOAD_PER_TYPE_MAX, UPLOAD_QUEUE_MAX } from '../src/shared/domain/constants.js';
import { limitsFor } from '../src/shared/domain/plans.js';
import { checkBatch, perTypeLimit } from './limits.js';

const ctx = (over: Partial<Parameters<typeof checkBatch>[1]> = {}) => ({
  level: 'pro' as const,
  job: 'enlarge',
  queued: 0,
  perTypeCount: 0,
  ...over,
});

describe('checkBatch', () => {
  it('guest, register and expired upload one image at a time', () => {
    for (const level of ['guest', 'register', 'expired'] as const) {
      expect(checkBatch(1, ctx({ level }))).toEqual({ accept: 1 });
      expect(checkBatch(2, ctx({ level }))).toEqual({ accept: 0, error: 'upload:onlyPaidMultiple' });
    }
  });
  it('basic takes 5 at once, pro 10 (within the queue)', () => {
    expect(checkBatch(limitsFor('basic').batch, ctx({ level: 'basic' }))).toEqual({ accept: UPLOAD_QUEUE_MAX });
    expect(checkBatch(limitsFor('basic').batch + 1, ctx({ level: 'basic' }))).toEqual({
      accept: 0,
      error: 'upload:tooManyFiles',
    });
    expect(checkBatch(limitsFor('pro').batch + 1, ctx())).toEqual({ accept: 0, error: 'upload:tooManyFiles' });
  });
  it('refuses more than 20 files in one input', () => {
    expect(checkBatch(BATCH_INPUT_MAX + 1, ctx())).toEqual({ accept: 0, error: 'upload:tooManyFiles' });
  });
  it('caps the per-type count at 10, and at the compress allowance for compress', () => {
    expect(perTypeLimit('pro', 'enlarge')).toBe(UPLOAD_PER_TYPE_MAX);
    expect(checkBatch(2, ctx({ perTypeCount: UPLOAD_PER_TYPE_MAX - 1 }))).toEqual({
      accept: 0,
      error: 'upload:tooManyFiles',
    });
    expect(checkBatch(1, ctx({ perTypeCount: UPLOAD_PER_TYPE_MAX - 1 }))).toEqual({ accept: 1 });
    expect(perTypeLimit('guest', 'compress')).toBe(limitsFor('guest').compressCredits);
    expect(
      checkBatch(1, ctx({ level: 'guest', job: 'compress', perTypeCount: limitsFor('guest').compressCredits })),
    ).toEqual({ accept: 0, error: 'upload:tooManyFiles' });
  });
  it('keeps the upload queue at 5: a full queue refuses, a short one takes what fits', () => {
    const basic = { level: 'basic' as const };
    expect(checkBatch(1, ctx({ ...basic, queued: UPLOAD_QUEUE_MAX }))).toEqual({
      accept: 0,
      error: 'upload:queueFull',
    });
    expect(checkBatch(4, ctx({ ...basic, queued: UPLOAD_QUEUE_MAX - 2 }))).toEqual({ accept: 2 });
  });
  it('Pro drops 10 at once: the queue grows to the plan batch', () => {
    expect(checkBatch(10, ctx())).toEqual({ accept: 10 });
    expect(checkBatch(4, ctx({ queued: 8 }))).toEqual({ accept: 2 });
    expect(checkBatch(1, ctx({ queued: 10 }))).toEqual({ accept: 0, error: 'upload:queueFull' });
  });
  it('an empty drop does nothing', () => {
    expect(checkBatch(0, ctx())).toEqual({ accept: 0 });
  });
});
