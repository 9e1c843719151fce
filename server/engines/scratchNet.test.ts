import { describe, expect, it } from 'vitest';
import { scratchLogit } from './scratchNet.js';
import { addScratches } from './scratches.js';
import { MODELS_DIR, input } from './testkit.js';
import { decodeRgb } from './image.js';

describe('scratch net', () => {
  it('gives the same log-odds in overlapping strips as in one run over the whole picture', async () => {
    const img = await decodeRgb((await input('heldout/path.jpg', { width: 240 })).data);
    const whole = await scratchLogit(img, MODELS_DIR, 2, 1 << 20);
    const strips = await scratchLogit(img, MODELS_DIR, 2, 48);
    expect(img.h).toBeGreaterThan(3 * 48);
    let worst = 0;
    for (let i = 0; i < whole.length; i++) worst = Math.max(worst, Math.abs(whole[i]! - strips[i]!));
    expect(worst).toBeLessThan(1e-3);
  });

  it('calls scratch pixels defects far more often than the rest of the picture', async () => {
    const clean = await decodeRgb((await input('heldout/aitzgorri.jpg', { width: 240 })).data);
    const { img, mask } = addScratches(clean, { seed: 4 });
    const logit = await scratchLogit(img, MODELS_DIR, 2);
    let onScratch = 0, nScratch = 0, off = 0, nOff = 0;
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
