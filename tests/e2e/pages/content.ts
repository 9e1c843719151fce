/** Page object for the content pages (about, blog, API docs, privacy, terms) and first-load checks. */
import { expect, type Page } from '@playwright/test';

export type Lang = 'en' | 'de';
const prefix = (lng: Lang) => (lng === 'en' ? '' : `/${lng}`);

export class ContentPages {
  constructor(readonly page: Page) {}

  async open(path: string, lng: Lang = 'en'): Promise<void> {
    await this.page.goto(`${prefix(lng)}${path}`);
    await expect(this.page.locator('main h1')).toBeVisible();
  }

  heading() {
    return this.page.locator('main h1');
  }

  sectionHeadings() {
    return this.page.locator('main article h2');
  }

  englishOnlyNote() {
    return this.page.getByTestId('english-only');
  }

  /** API docs rows as "METHOD path". */
  async apiRows(): Promise<string[]> {
    return this.page.getByTestId('api-route').evaluateAll((rows) => rows.map((r) => `${r.children[0].textContent} ${r.children[1].textContent}`));
  }

  postCards() {
    return this.page.getByTestId('post-card');
  }

  /** Every script response of the page so far, with its body text. */
  static trackScripts(page: Page): { url: string; body: Promise<string> }[] {
    const seen: { url: string; body: Promise<string> }[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') seen.push({ url: r.url(), body: r.text().catch(() => '') });
    });
    return seen;
  }

  async shot(name: string): Promise<void> {
    await this.page.screenshot({ path: `tests/e2e/screenshots/${name}.png`, fullPage: false });
  }
}
