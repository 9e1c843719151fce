import { describe, expect, it } from 'vitest';
import { ORIGINALS_QUOTA_SHARE, originalFits } from './keptOnDevice.js';

describe('originalFits', () => {
  it('keeps a picked file while the usage with it stays under the share of the quota', () => {
    const quota = 100 * 1024 * 1024;
    const limit = quota * ORIGINALS_QUOTA_SHARE;
    expect(originalFits(1024, { usage: limit - 1024, quota })).toBe(true);
    expect(originalFits(1025, { usage: limit - 1024, quota })).toBe(false);
    expect(originalFits(20 * 1024 * 1024, { usage: 0, quota: 10 * 1024 * 1024 })).toBe(false);
  });
  it('leaves it to the browser when there is no estimate', () => {
    expect(originalFits(1e12, undefined)).toBe(true);
    expect(originalFits(1e12, { usage: 5 })).toBe(true);
  });
});
