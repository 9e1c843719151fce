/** Page object for the "Process on this device" choice in the workspace panel. */
import { expect, type Locator, type Page, type Request } from '@playwright/test';

/**
 * Requests that would carry a photo or a job to the server: uploads, slices, transform, progress, result
 * downloads, the site's credit posts (the upload history list is no upload: it asks what is already there).
 */
const SERVER_WORK =
  /\/web_api\/v1\/(upload(?!\/list)|transform|progress|download|preview)|\/api\/v2\/upload_slice|\/site-ajax$/;

export class DeviceChoicePanel {
  constructor(readonly page: Page) {}

  toggle(): Locator {
    return this.page.getByTestId('device-choice-toggle');
  }

  note(): Locator {
    return this.page.getByTestId('device-choice-note');
  }

  async turnOn() {
    await this.toggle().check();
    await expect(this.toggle()).toBeChecked();
  }

  /** Every request the page and its workers send from now on (paths), to prove what was never sent. */
  static record(page: Page): { paths: string[]; serverWork(): string[] } {
    const paths: string[] = [];
    page.on('request', (r: Request) => void paths.push(new URL(r.url()).pathname));
    return { paths, serverWork: () => paths.filter((p) => SERVER_WORK.test(p)) };
  }
}
