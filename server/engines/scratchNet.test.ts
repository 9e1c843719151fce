import { describe, expect, it } from 'vitest';
import { scratchLogit } from './scratchNet.js';
import { addScratches } from './scratches.js';
import { MODELS_DIR, input } from '../../tests/support/engines.js';
import { decodeRgb } from './image.js';

describe('scratch net', () => {
  it('gives the same log-odds in overlapping strips as in one run over the whole picture', async () => {
    // 301 rows in strips of 32: most strips have context rows both above and below, the last one
    // ends past the picture (its rows are padded to a multiple of 8); width 482 is padded too
    const img = await decodeRgb((await input('wallpapers/path.jpg', { width: 482 })).data);
    const whole = await scratchLogit(img, MODELS_DIR, 2, 1 << 20);
    const strips = await scratchLogit(img, MODELS_DIR, 2, 32);
    expect(img.h % 8).not.toBe(0);
    expect(img.h).toBeGreaterThan(2 * 96 + 3 * 32);
    let worst = 0;
    for (let i = 0; i < whole.length; i++) worst = Math.max(worst, Math.abs(whole[i]! - strips[i]!));
    expect(worst).toBeLessThan(1e-3);
  });

  it('calls scratch pixels defects far more often than the rest of the picture', async () => {
    const clean = await decodeRgb((await input('wallpapers/aitzgorri.jpg', { width: 240 })).data);
    const { img, mask } = addScratches(clean, { seed: 4 });
    const logit = await scratchLogit(img, MODELS_DIR, 2);
    let onScratch = 0,
      nScratch = 0,
      off = 0,
      nOff = 0;
    for (let i = 0; i < mask.length; i++) {
      if (mask[i]) {
        nScratch++;
        onScratch += logit[i]! > 0 ? 1 : 0;
      } else {
        nOff++;
        off += logit[i]! > 0 ? 1 : 0;
      }
    }
    expect(onScratch / nScratch).toBeGreaterThan(0.6);
    expect(off / nOff).toBeLessThan(0.02);
  });
});
