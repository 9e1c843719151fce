/** Page object of the developer section of /my-account/ (src/pages/account/ApiTokenSection.tsx). */
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

const SHOTS = path.resolve(import.meta.dirname, '../screenshots');

export class ApiTokenSection {
  readonly root: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByTestId('api-section');
  }

  async open(prefix = '') {
    await this.page.goto(`${prefix}/my-account/`);
    await expect(this.root).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  }

  createButton = () => this.root.getByTestId('api-create');
  fullToken = () => this.root.getByTestId('api-token-full');
  masked = () => this.root.getByTestId('api-token-masked');
  calls = () => this.root.getByTestId('api-calls');
  credits = () => this.root.getByTestId('api-credits');
  packCredits = () => this.root.getByTestId('api-pack-credits');
  notEntitled = () => this.root.getByTestId('api-not-entitled');
  plan = (name: string) => this.root.getByTestId(`api-plan-${name}`);

  async create(): Promise<string> {
    await this.createButton().click();
    await expect(this.fullToken()).toBeVisible();
    return (await this.fullToken().textContent()) ?? '';
  }

  async reset(): Promise<string> {
    const before = (await this.fullToken().count()) ? await this.fullToken().textContent() : null;
    await this.root.getByTestId('api-reset').click();
    await expect(this.root.getByTestId('api-reset-confirm')).toBeVisible();
    await this.root.getByTestId('api-reset-yes').click();
    await expect(this.fullToken()).toBeVisible();
    if (before) await expect(this.fullToken()).not.toHaveText(before);
    return (await this.fullToken().textContent()) ?? '';
  }

  /** The section alone, as a PNG under tests/e2e/screenshots/. */
  async screenshot(name: string) {
    await this.root.scrollIntoViewIfNeeded();
    await this.root.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  }
}
