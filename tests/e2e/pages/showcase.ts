/** Page object for the storefront's before/after hero (src/features/showcase/BeforeAfter.tsx). */
import { expect, type Locator, type Page } from '@playwright/test';

export class Hero {
  constructor(private readonly page: Page) {}

  figure(): Locator {
    return this.page.getByTestId('before-after');
  }

  /** Waits until the hero has decided: its pictures shown, or the "needs a connection" state. */
  async settled(): Promise<'shown' | 'unavailable'> {
    await expect(this.figure()).toHaveAttribute('data-state', /^(shown|unavailable)$/, { timeout: 30_000 });
    return (await this.figure().getAttribute('data-state')) as 'shown' | 'unavailable';
  }

  /** The decoded widths of the before and after pictures (0 for a picture that did not load). */
  async naturalWidths(): Promise<number[]> {
    const imgs = this.figure().locator('img');
    await expect(imgs).toHaveCount(2);
    for (const img of await imgs.all())
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete)).toBe(true);
    return imgs.evaluateAll((els) => els.map((el) => (el as HTMLImageElement).naturalWidth));
  }

  /**
   * The after picture's alpha, read through a canvas: the share of its subject (α ≥ 128) that is fully
   * opaque, and the share of the picture at α 250–254 (see-through on a checkerboard).
   */
  async afterAlpha(): Promise<{ solidSubject: number; nearlyOpaque: number }> {
    await this.naturalWidths();
    return this.figure()
      .locator('img.ba-after')
      .evaluate((img: HTMLImageElement) => {
        const c = document.createElement('canvas');
        c.width = img.naturalWidth;
        c.height = img.naturalHeight;
        const g = c.getContext('2d')!;
        g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, c.width, c.height).data;
        let subject = 0,
          solid = 0,
          near = 0;
        for (let i = 3; i < d.length; i += 4) {
          if (d[i]! >= 128) subject++;
          if (d[i] === 255) solid++;
          else if (d[i]! >= 250) near++;
        }
        return { solidSubject: solid / Math.max(1, subject), nearlyOpaque: near / (d.length / 4) };
      });
  }

  caption(): Locator {
    return this.figure().locator('figcaption');
  }
}
