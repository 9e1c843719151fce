/**
 * Page object for the upload harness (tests/e2e/harness): the real upload manager, Dexie and service worker.
 * A build of its own (dist-test/, made by the e2e global setup), served under /test-pages/ by the e2e servers
 * (tests/support/testPages.ts).
 */
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { HARNESS_PATH } from '../../support/testPages.js';

export const fixture = (name: string) => path.resolve(import.meta.dirname, '../../fixtures', name);

export class UploadHarness {
  constructor(readonly page: Page) {}

  /** `base`: another server's origin (tests that start their own server); default the config's baseURL. */
  async open(params: Record<string, string> = {}, base = ''): Promise<void> {
    await this.page.goto(`${base}${HARNESS_PATH}?${new URLSearchParams(params)}`);
    await expect(this.page.locator('main[data-ready="1"]')).toBeVisible();
  }

  async drop(...files: string[]): Promise<void> {
    await this.page.getByTestId('file-input').setInputFiles(files);
  }

  works(): Locator {
    return this.page.getByTestId('works').locator('li');
  }

  work(status: string): Locator {
    return this.page.locator(`[data-testid="works"] li[data-status="${status}"]`);
  }

  messages(): Locator {
    return this.page.getByTestId('messages');
  }

  runtime(): Promise<string> {
    return this.page.evaluate(() => (window as any).__harness.runtime());
  }

  events(): Promise<
    { cid: string; status: string; progress?: number; uid?: string; w?: number; h?: number; filesize?: number }[]
  > {
    return this.page.evaluate(() => (window as any).__harness.events);
  }

  longTasks(): Promise<{ start: number; duration: number }[]> {
    return this.page.evaluate(() => (window as any).__harness.longTasks);
  }

  /** Upload items as stored in IndexedDB (without their bytes). */
  storedUploads(): Promise<StoredUpload[]> {
    return storedUploads(this.page);
  }

  /** The server's own record of the user's uploads (POST /web_api/v1/upload/list). */
  serverUploads(): Promise<{ uid: string; name: string; file_size: number; w: number; h: number }[]> {
    return this.page.evaluate(async () => {
      const body = new URLSearchParams({ user_token: localStorage.getItem('harness-token') ?? '', limit: '1000' });
      const env = await (await fetch('/web_api/v1/upload/list', { method: 'POST', body })).json();
      return env.data.datas;
    });
  }
}

export interface StoredUpload {
  cid: string;
  uid?: string;
  acked: number[];
  uploadStatus: string;
  totalSlices: number;
}

/**
 * Upload items as the page stored them in IndexedDB (without their bytes); any page of the origin. An
 * upload the server has keeps only a bytes-free record (uploadStatus 'success', src/db markUploaded),
 * left out here: what is listed is what is still to be uploaded.
 */
export function storedUploads(page: Page): Promise<StoredUpload[]> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('pixmill');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction('uploads').objectStore('uploads').getAll();
          req.onsuccess = () => {
            resolve(
              req.result
                .filter((item: any) => item.uploadStatus !== 'success')
                .map(({ bytes: _bytes, ...rest }: any) => rest),
            );
            open.result.close();
          };
          req.onerror = () => reject(req.error);
        };
      }),
  );
}
