import { describe, expect, it } from 'vitest';
import {
  creditStanding,
  creditsLeft,
  warnsLowCredits,
  deriveLevel,
  fitToLimits,
  largestMegapixels,
  limitsFor,
  megapixelsToPixels,
  PLAN_LIMITS,
  SIDE_CAP_ASPECT,
  sideCapFor,
} from './plans.js';

describe('deriveLevel (spec §4)', () => {
  it.each([
    [{ logged: false, isExpired: false, pid: 11043 }, 'guest'],
    [{ logged: true, isExpired: true, pid: 11043 }, 'expired'],
    [{ logged: true, isExpired: false, pid: 0 }, 'register'],
    [{ logged: true, isExpired: false, pid: 11042 }, 'basic'],
    [{ logged: true, isExpired: false, pid: 11043 }, 'pro'],
    [{ logged: true, isExpired: false, pid: 12345 }, 'expired'],
  ] as const)('%o → %s', (facts, level) => {
    expect(deriveLevel(facts)).toBe(level);
  });
});

describe('creditsLeft', () => {
  it.each([
    [3, 0, 3],
    [3, 3, 0],
    [3, 5, 0],
    [200, 17, 183],
  ])('max %i used %i → %i', (max, used, left) => expect(creditsLeft(max, used)).toBe(left));
});

describe('creditStanding: the low-credit warning only after some credits were spent', () => {
  it.each([
    // a new guest / free account: its whole allowance of 3 is below the spec's 4, but untouched → no warning
    [3, 0, 'fresh'],
    [200, 0, 'fresh'],
    // spent some, at most 4 left → warn
    [3, 1, 'low'],
    [3, 2, 'low'],
    [10, 6, 'low'],
    [200, 196, 'low'],
    // spent some, more than 4 left → quiet
    [10, 5, 'ok'],
    [200, 17, 'ok'],
    // nothing left (also when over-spent)
    [3, 3, 'empty'],
    [3, 5, 'empty'],
    [0, 0, 'empty'],
  ] as const)('max %i used %i → %s', (max, used, standing) => expect(creditStanding(max, used)).toBe(standing));

  it('warns for low and empty, never for a fresh allowance', () => {
    expect(warnsLowCredits(creditStanding(3, 0))).toBe(false);
    expect(warnsLowCredits(creditStanding(3, 1))).toBe(true);
    expect(warnsLowCredits(creditStanding(3, 3))).toBe(true);
    expect(warnsLowCredits(creditStanding(200, 17))).toBe(false);
  });
});

describe('plan limits (spec §6)', () => {
  const MB = 1024 * 1024;
  it.each([
    ['guest', 1, 3, 5 * MB, 2.8, 5 * MB, 5],
    ['register', 1, 3, 5 * MB, 2.8, 5 * MB, 100],
    ['basic', 5, 200, 10 * MB, 14, 50 * MB, 200],
    ['pro', 10, 500, 10 * MB, 34, 50 * MB, 500],
    ['expired', 1, 3, 5 * MB, 2.8, 5 * MB, 5],
  ] as const)('%s', (level, batch, credits, maxFile, mp, compressMax, compressCredits) => {
    const l = limitsFor(level);
    expect([l.batch, l.credits, l.maxFileBytes, l.maxMegapixels, l.compressMaxBytes, l.compressCredits]).toEqual([
      batch,
      credits,
      maxFile,
      mp,
      compressMax,
      compressCredits,
    ]);
  });
  it('expired users get guest-like limits', () => expect(PLAN_LIMITS.expired).toEqual(PLAN_LIMITS.guest));
  it('workflow steps: 5 for pro, 3 otherwise', () => {
    expect(limitsFor('pro').workflowSteps).toBe(5);
    for (const l of ['guest', 'register', 'basic', 'expired'] as const) expect(limitsFor(l).workflowSteps).toBe(3);
  });
});

describe('megapixelsToPixels (worker fit, upload check and transform check share it)', () => {
  it.each([
    [2.8, 2_800_000],
    [14, 14_000_000],
    [34, 34_000_000],
    [0.5, 500_000],
  ])('%s MP → %s px', (mp, px) => expect(megapixelsToPixels(mp)).toBe(px));
  it('a 2000×1400 image fits the free plan exactly', () =>
    expect(2000 * 1400 <= megapixelsToPixels(limitsFor('guest').maxMegapixels)).toBe(true));
});

describe('fitToLimits (megapixels and longest side)', () => {
  it.each([
    // [w, h, level, expected w, h, resized]
    [5640, 3172, 'guest', 2231, 1254, true],
    [1000, 800, 'guest', 1000, 800, false],
    [2400, 1000, 'guest', 2400, 1000, false], // 2.4 MP: the megapixels bind, not a 2000 px side
    [6992, 4144, 'pro', 6992, 4144, false], // a 29 MP photo keeps its pixels on Pro
    [5477, 3652, 'basic', 4582, 3055, true], // a 20 MP photo is fitted to Basic's 14 MP
    [5640, 3172, 'basic', 4989, 2806, true], // 17.9 MP fitted to 14 MP (was 3000×1687 under a 3000 px side)
    [20000, 1000, 'pro', 11661, 583, true], // a 20:1 strip is fitted by the derived side cap
  ] as const)('%i×%i for %s → %i×%i', (w, h, level, ew, eh, resized) => {
    const r = fitToLimits(w, h, limitsFor(level));
    expect(r.resized).toBe(resized);
    expect(r.w * r.h).toBeLessThanOrEqual(megapixelsToPixels(limitsFor(level).maxMegapixels));
    expect(Math.max(r.w, r.h)).toBeLessThanOrEqual(limitsFor(level).maxSidePx);
    expect([r.w, r.h]).toEqual([ew, eh]);
  });
  it('the largest plan resolution is Pro’s 34 MP', () => expect(largestMegapixels()).toBe(34));
});

describe('side caps derived from the megapixel limits', () => {
  it.each([
    ['guest', 2.8, 3347],
    ['basic', 14, 7484],
    ['pro', 34, 11662],
  ] as const)('%s: %s MP → %i px', (level, mp, side) => {
    expect(limitsFor(level).maxMegapixels).toBe(mp);
    expect(limitsFor(level).maxSidePx).toBe(side);
    expect(sideCapFor(mp)).toBe(side);
  });
  it('never undercuts the megapixel limit for any aspect up to 4:1', () => {
    for (const level of ['guest', 'basic', 'pro'] as const) {
      const lim = limitsFor(level);
      for (let aspect = 1; aspect <= SIDE_CAP_ASPECT; aspect += 0.05) {
        // the largest picture of this aspect within the megapixels
        const h = Math.floor(Math.sqrt(megapixelsToPixels(lim.maxMegapixels) / aspect));
        const w = Math.floor(h * aspect);
        expect(fitToLimits(w, h, lim).resized, `${level} ${w}×${h}`).toBe(false);
      }
    }
  });
});
