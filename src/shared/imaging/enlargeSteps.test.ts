import { describe, expect, it } from 'vitest';
import { postSharpen } from './enlargeSteps.js';
import { decodeRgb } from '../../../server/engines/image.js';
import { input } from '../../../tests/support/engines.js';

describe('postSharpen', () => {
  it('sharpens in place, strip by strip, with the bytes of one pass over the whole picture', async () => {
    const img = await decodeRgb(
      (await input('motorcycle_left.png', { crop: { left: 100, top: 50, width: 300, height: 230 } })).data,
    );
    const copy = () => ({ ...img, data: img.data.slice() });
    const whole = postSharpen(copy(), 90, 2, img.h);
    for (const rows of [9, 16, 57]) {
      const pic = copy();
      const out = postSharpen(pic, 90, 2, rows);
      expect(out.data).toBe(pic.data); // the result is not held twice
      expect(Buffer.compare(Buffer.from(out.data), Buffer.from(whole.data))).toBe(0);
    }
    // and it does sharpen
    expect(Buffer.compare(Buffer.from(whole.data), Buffer.from(img.data))).not.toBe(0);
  });
});
