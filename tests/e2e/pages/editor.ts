/** Page object for the background editor (/image-editor/): the edge brush and the shown canvas's pixels. */
import { expect, type Locator, type Page } from '@playwright/test';

export class EditorPage {
  constructor(readonly page: Page) {}

  canvas(): Locator {
    return this.page.getByTestId('editor-canvas');
  }

  async ready() {
    await expect(this.canvas()).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => this.canvas().evaluate((c) => (c as HTMLCanvasElement).width)).toBeGreaterThan(0);
  }

  /** Drags the brush across the canvas's middle, left to right, over `frac` of its width. */
  async strokeAcrossMiddle(frac = 0.3) {
    const b = (await this.canvas().boundingBox())!;
    const y = b.y + b.height / 2;
    await this.page.mouse.move(b.x + b.width * (0.5 - frac / 2), y);
    await this.page.mouse.down();
    await this.page.mouse.move(b.x + b.width * (0.5 + frac / 2), y, { steps: 12 });
    await this.page.mouse.up();
  }

  /** RGBA of the shown canvas at the image's centre. */
  centrePixel(): Promise<number[]> {
    return this.canvas().evaluate((c) => {
      const cv = c as HTMLCanvasElement;
      return [...cv.getContext('2d')!.getImageData(Math.floor(cv.width / 2), Math.floor(cv.height / 2), 1, 1).data];
    });
  }
}
