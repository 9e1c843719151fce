import { describe, expect, it } from 'vitest';
import { ENLARGE_MAX_SIDE_PX } from './constants.js';
import { jobScale, largestSideFor, outputSize, outputTooLarge, previewTooLarge, resultSize } from './resultSize.js';

describe('output size and preview limit', () => {
  it('multiplies by the scale', () => {
    expect(outputSize(1000, 500, 4)).toEqual({ w: 4000, h: 2000 });
  });
  it('scale from a job or workflow', () => {
    expect(jobScale({ job: 'enlarge', config: { module: 'enlarge', module_params: { scale: 4 } } })).toBe(4);
    expect(jobScale({ job: 'denoise', config: { module: 'denoise', module_params: {} } })).toBe(1);
    expect(
      jobScale({
        job: 'workflow',
        flows: [
          { config: { module: 'denoise', module_params: {} } },
          { config: { module: 'enlarge', module_params: { scale: 2 } } },
        ],
      }),
    ).toBe(2);
  });
  it('a preset enlarges by its own steps and a saved workflow may carry its config as JSON text', () => {
    expect(jobScale({ job: 'se-hd' })).toBe(2);
    expect(jobScale({ job: 'se-night' })).toBe(1);
    expect(
      jobScale({
        job: 'workflow',
        flows: [{ config: JSON.stringify({ module: 'enlarge', module_params: { scale: 4 } }) }],
      }),
    ).toBe(4);
    expect(jobScale({ job: 'enlarge' })).toBe(2);
  });
  it("refuses a scale whose result is over the largest side (the issue's 6500×4600 at 4x), keeps the one that fits", () => {
    expect(outputTooLarge(6500, 4600, 4)).toEqual({ w: 26000, h: 18400, max: ENLARGE_MAX_SIDE_PX });
    expect(outputTooLarge(6500, 4600, 2)).toBeNull();
    expect(outputTooLarge(4096, 3000, 4)).toBeNull();
    expect(outputTooLarge(4097, 3000, 4)).not.toBeNull();
    expect(outputTooLarge(20000, 100, 1)).toBeNull();
    expect(largestSideFor(4)).toBe(4096);
    expect(largestSideFor(6)).toBe(2730);
  });
  it.each([
    [2250, 1000, 8, false],
    [2251, 1000, 8, true],
    [1000, 3000, 6, false],
    [1000, 3001, 6, true],
  ])('%i×%i ×%i over 18000: %s', (w, h, s, expected) => {
    expect(previewTooLarge(w, h, s)).toBe(expected);
  });
});

describe('resultSize (the preview names the real result size)', () => {
  it('uses the size the server reported when known, else w×h times the job scale', () => {
    const enlarge = { job: 'enlarge', config: { module: 'enlarge', module_params: { scale: 4 } } } as never;
    expect(resultSize({ w: 100, h: 50, params: enlarge })).toEqual({ w: 400, h: 200 });
    // an old-photo repair of 1024² whose server result is 2048²
    expect(resultSize({ w: 1024, h: 1024, zoomW: 2048, zoomH: 2048, params: { job: 'se-old-repair' } })).toEqual({
      w: 2048,
      h: 2048,
    });
  });
});
