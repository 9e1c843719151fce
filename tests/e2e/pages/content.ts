/** Page object for the content pages (about, blog, API docs, privacy, terms, authors, desktop app) and first-load checks. */
import { expect, type Page } from '@playwright/test';

export type Lang = 'en' | 'de' | 'fr' | 'ja';
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

  /** API docs calls as "METHOD path". */
  async apiRows(): Promise<string[]> {
    return this.page
      .getByTestId('api-route')
      .evaluateAll((rows) => rows.map((r) => `${r.children[0].textContent} ${r.children[1].textContent}`));
  }

  /** The API docs' group headings, in order. */
  async apiGroups(): Promise<string[]> {
    return this.page.getByTestId('api-group').locator('h2').allTextContents();
  }

  /** One call's card on the API docs page, by "METHOD path". */
  apiCall(call: string) {
    const exact = new RegExp(`^${call.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')}$`);
    return this.page
      .getByTestId('api-call')
      .filter({ has: this.page.getByTestId('api-route').filter({ hasText: exact }) });
  }

  /** The authors page's team blocks, by author id. */
  author(id: string) {
    return this.page.locator(`[data-testid="author"][data-author="${id}"]`);
  }

  installPanel() {
    return this.page.getByTestId('install-panel');
  }

  /**
   * Sends the page the event Chromium fires when it offers installation (headless Chromium never does),
   * with a prompt() that records the call and answers `outcome`.
   */
  async offerInstall(outcome: 'accepted' | 'dismissed'): Promise<void> {
    await this.page.evaluate((answer) => {
      const e = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
        prompt(): Promise<void>;
        userChoice: Promise<{ outcome: string }>;
      };
      const w = window as unknown as { __installPrompted: number };
      w.__installPrompted = 0;
      e.prompt = async () => {
        w.__installPrompted++;
      };
      Object.defineProperty(e, 'userChoice', { value: Promise.resolve({ outcome: answer }) });
      window.dispatchEvent(e);
    }, outcome);
  }

  async installPromptCalls(): Promise<number> {
    return this.page.evaluate(() => (window as unknown as { __installPrompted?: number }).__installPrompted ?? 0);
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
