/** Page object for the preview dialog (before/after, zoom, navigator, hold-to-compare). */
import { expect, type Locator, type Page } from '@playwright/test';
import type { Workspace } from './workspace.js';

/** A sample processed by simulation (no credit, no server job): the quickest way to a finished work. */
export async function finishedSample(page: Page, ws: Workspace, prefix = '') {
  await ws.open(`${prefix}/batch-process/`);
  await ws.chooseFeature('denoise');
  await page.getByTestId('upload-tab-sample').click();
  await page.getByTestId('sample').first().click();
  await ws.card('ready').locator('input[type=checkbox]').check();
  await ws.startButton().click();
  await expect(page.getByTestId('ready-toast')).toBeVisible({ timeout: 30_000 });
}

export type Rect = { x: number; y: number; width: number; height: number };

export class Preview {
  constructor(readonly page: Page) {}

  dialog(): Locator {
    return this.page.getByTestId('preview-dialog');
  }

  /** Opens the preview from the "ready" toast and waits for the result's pixels. */
  async openFromToast() {
    await this.page.getByTestId('ready-preview').click();
    await this.resultLoaded();
  }

  async resultLoaded() {
    await expect
      .poll(() => this.page.getByTestId('img-after').evaluate((i) => (i as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
  }

  /** Both images decoded and faded in (for a screenshot that shows them as a user sees them). */
  async settled() {
    for (const id of ['img-before', 'img-after']) {
      await expect
        .poll(() =>
          this.page
            .getByTestId(id)
            .evaluate((i) => (i as HTMLImageElement).complete && getComputedStyle(i).opacity === '1'),
        )
        .toBe(true);
    }
  }

  /** The stage's outer box (the same in every mode). */
  async stageBox(): Promise<Rect> {
    return (await this.dialog().locator('.preview-stage-wrap').boundingBox())!;
  }

  async mode(which: 'compare' | 'side') {
    await this.page.getByTestId(`mode-${which}`).click();
  }

  /** Wheel-zooms `steps` notches in over the result's pane. */
  async wheelIn(steps = 6) {
    const box = (await this.page.getByTestId('stage').boundingBox())!;
    await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < steps; i++) await this.page.mouse.wheel(0, -100);
  }

  navigator(): Locator {
    return this.page.getByTestId('navigator');
  }

  /** The part of the result's pane the result image covers, in page coordinates. */
  async resultVisibleRect(): Promise<Rect> {
    const pane = (await this.page.getByTestId('stage').boundingBox())!;
    const img = (await this.page.getByTestId('img-after').boundingBox())!;
    const x = Math.max(pane.x, img.x);
    const y = Math.max(pane.y, img.y);
    return {
      x,
      y,
      width: Math.min(pane.x + pane.width, img.x + img.width) - x,
      height: Math.min(pane.y + pane.height, img.y + img.height) - y,
    };
  }

  holdButton(): Locator {
    return this.page.getByTestId('hold-original');
  }

  afterSrc(): Promise<string | null> {
    return this.page.getByTestId('img-after').getAttribute('src');
  }

  beforeSrc(): Promise<string | null> {
    return this.page.getByTestId('img-before').getAttribute('src');
  }
}
