/** Page object for the batch-process workspace (the UI's own e2e tests). */
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

export const fixture = (name: string) => path.resolve(import.meta.dirname, '../../fixtures', name);
export const shot = (name: string) => path.resolve(import.meta.dirname, '../screenshots', `${name}.png`);

export class Workspace {
  constructor(readonly page: Page) {}

  async open(path = '/batch-process/') {
    await this.page.goto(path);
    await expect(this.page.getByTestId('credits')).toBeVisible({ timeout: 30_000 });
  }

  tab(name: 'uploaded' | 'processing' | 'processed'): Locator {
    return this.page.getByTestId(`tab-${name}`);
  }

  cards(): Locator {
    return this.page.getByTestId('work-card');
  }

  card(status: string): Locator {
    return this.page.locator(`[data-testid="work-card"][data-status="${status}"]`);
  }

  async chooseFeature(module: string) {
    await this.page.getByTestId('tab-feature').click();
    await this.page.getByTestId(`feature-${module}`).click();
  }

  async upload(...files: string[]) {
    await this.page.getByTestId('file-input').setInputFiles(files.map(fixture));
  }

  startButton(): Locator {
    return this.page.getByTestId('start');
  }

  async screenshot(name: string) {
    await this.page.screenshot({ path: shot(name), fullPage: true });
  }
}
