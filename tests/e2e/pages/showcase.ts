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
    for (const img of await imgs.all()) await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete)).toBe(true);
    return imgs.evaluateAll((els) => els.map((el) => (el as HTMLImageElement).naturalWidth));
  }

  caption(): Locator {
    return this.figure().locator('figcaption');
  }
}
