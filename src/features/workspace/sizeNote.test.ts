// Which plan limit shrank an upload, so the notice names it (issue 47: a 61 MB PNG within Pro's pixels
// was told it was resized "to fit your plan (34 MP …)" when the file size was the limit hit).
import { describe, expect, it } from 'vitest';
import { fitToLimits, limitsFor } from '../../shared/domain/plans.js';
import { resizeLimitOf } from './sizeNote.js';

const pro = limitsFor('pro');

describe('resizeLimitOf', () => {
  it('a PNG within the pixels, shrunk for its file size: the file size', () => {
    expect(resizeLimitOf({ sourceW: 5000, sourceH: 4000, w: 3500, h: 2800 }, pro)).toBe('fileSize');
  });
  it('a photo over the megapixels, fitted to them: the pixels', () => {
    const fit = fitToLimits(9000, 6000, pro);
    expect(resizeLimitOf({ sourceW: 9000, sourceH: 6000, w: fit.w, h: fit.h }, pro)).toBe('pixels');
  });
  it('fitted to the pixels and still too large a file: both', () => {
    const fit = fitToLimits(9000, 6000, pro);
    expect(
      resizeLimitOf({ sourceW: 9000, sourceH: 6000, w: Math.round(fit.w * 0.8), h: Math.round(fit.h * 0.8) }, pro),
    ).toBe('both');
  });
  it('not resized: nothing to say', () => {
    expect(resizeLimitOf({ sourceW: 800, sourceH: 600, w: 800, h: 600 }, pro)).toBeNull();
  });
});
