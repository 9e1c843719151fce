import { describe, expect, it } from 'vitest';
import {
  learnRate,
  observedRate,
  RATE_EMA_ALPHA,
  rateKey,
  SEED_S_PER_MP,
  secondsLeft,
  waitingSeconds,
  WORK_OVERHEAD_S,
  workSeconds,
} from './estimate.js';

describe('the time estimate', () => {
  it('keeps a rate per module, and per scale for enlarge', () => {
    expect(rateKey('enlarge', { scale: 4 })).toBe('enlarge:4');
    expect(rateKey('enlarge', {})).toBe('enlarge:2');
    expect(rateKey('denoise', { remove_noise: 50 })).toBe('denoise');
  });

  it('is megapixels × the rate + the overhead, each step on the pixels the steps before it made', () => {
    // 2000×1400 = 2.8 MP x2 at the seed: 2.8 × 4 + 1
    expect(workSeconds([{ module: 'enlarge', module_params: { scale: 2 } }], 2000, 1400, {})).toBeCloseTo(
      2.8 * SEED_S_PER_MP['enlarge:2']! + WORK_OVERHEAD_S,
    );
    // a learned rate wins over the seed
    expect(workSeconds([{ module: 'sharpen' }], 1000, 1000, { sharpen: 2 })).toBeCloseTo(2 + WORK_OVERHEAD_S);
    // enlarge x2 then denoise: the denoise runs on 4× the pixels
    expect(
      workSeconds([{ module: 'enlarge', module_params: { scale: 2 } }, { module: 'denoise' }], 1000, 1000, {
        'enlarge:2': 3,
        denoise: 1,
      }),
    ).toBeCloseTo(3 + 4 + WORK_OVERHEAD_S);
  });

  it('learns as a moving average, one wild measurement moving it at most 4× of the way', () => {
    expect(learnRate(undefined, 6)).toBe(6);
    expect(learnRate(4, 6)).toBeCloseTo(4 + RATE_EMA_ALPHA * 2);
    expect(learnRate(4, 1000)).toBeCloseTo(4 + RATE_EMA_ALPHA * 12);
    expect(learnRate(4, Number.NaN)).toBe(4);
    expect(observedRate(11, 2000, 1000)).toBeCloseTo(5);
    expect(observedRate(3, 100, 100)).toBeUndefined();
  });

  it('counts what is left: a running work by its progress, a waiting one behind the works ahead on the slots', () => {
    expect(secondsLeft(40, 25)).toBe(30);
    expect(secondsLeft(40, 100)).toBe(1);
    expect(waitingSeconds([30, 10, 20], 12, 2)).toBe(42);
    expect(waitingSeconds([], 12, 2)).toBe(12);
  });
});
