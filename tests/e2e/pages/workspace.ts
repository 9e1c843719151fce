/** Page object for the batch-process workspace (the UI's own e2e tests). */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

export const fixture = (name: string) => path.resolve(import.meta.dirname, '../../fixtures', name);
export const shot = (name: string) => path.resolve(import.meta.dirname, '../screenshots', `${name}.png`);

export class Workspace {
  constructor(readonly page: Page) {}

  async open(path = '/batch-process/') {
    await this.page.goto(path);
    await expect(this.page.getByTestId('credits')).toBeVisible({ timeout: 30_000 });
    // The workspace pages are a lazy chunk: wait until the workspace itself is mounted.
    if (/(batch-process|upload|single-process)\//.test(path))
      await expect(this.page.getByTestId('workspace')).toBeVisible({ timeout: 30_000 });
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

  /** A feature page (e.g. /image-compressor/) with its workspace popup opened, feature preselected. */
  async openFeaturePage(path: string, prefix = '') {
    await this.page.goto(`${prefix}${path}`);
    await expect(this.page.getByTestId('credits')).toBeVisible({ timeout: 30_000 });
    await this.page.getByTestId('open-workspace').click();
    await expect(this.page.getByTestId('file-input').first()).toBeAttached();
  }

  /** The warning dialog that lists refused uploads with their reasons. */
  messageDialog(): Locator {
    return this.page.getByTestId('message-dialog');
  }

  async chooseFeature(module: string) {
    await this.page.getByTestId('tab-feature').click();
    await this.page.getByTestId(`feature-${module}`).click();
  }

  /** Puts the first sample of the chosen feature in the list, selects its card and starts processing. */
  async processFirstSample() {
    await this.page.getByTestId('upload-tab-sample').click();
    await this.page.getByTestId('sample').first().click();
    await this.card('ready').locator('input[type=checkbox]').check();
    await this.startButton().click();
  }

  async upload(...files: string[]) {
    await this.page
      .getByTestId('file-input')
      .first()
      .setInputFiles(files.map((f) => (path.isAbsolute(f) ? f : fixture(f))));
  }

  /** Drops files on the upload area's drop zone at once (the guest's file input takes only one). */
  async drop(...files: string[]) {
    const payload = files.map((f) => {
      const file = path.isAbsolute(f) ? f : fixture(f);
      return {
        name: path.basename(file),
        type: file.endsWith('.png') ? 'image/png' : 'image/jpeg',
        b64: fs.readFileSync(file).toString('base64'),
      };
    });
    await this.page
      .locator('.dropzone')
      .first()
      .evaluate((zone, items) => {
        const dt = new DataTransfer();
        for (const it of items)
          dt.items.add(new File([Uint8Array.from(atob(it.b64), (c) => c.charCodeAt(0))], it.name, { type: it.type }));
        zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, payload);
  }

  /**
   * Reloads the page the moment the works list has been saved with a work still being prepared
   * (status resizing or compressing), before its fitted bytes are stored: what a reload or a closed
   * tab does to a large file in the seconds its resize takes. Resolves with that work's cid.
   * `evictOriginal`: the picked file stored for it is deleted first (what an evicted store leaves).
   */
  async reloadWhilePreparing(opts: { evictOriginal?: boolean } = {}): Promise<string> {
    const cid = await this.page.evaluate(
      (evict) =>
        new Promise<string>((resolve) => {
          const look = () => {
            const open = indexedDB.open('pixmill');
            open.onsuccess = () => {
              const db = open.result;
              if (!db.objectStoreNames.contains('works')) return void setTimeout(look, 20);
              const all = db.transaction('works').objectStore('works').getAll();
              all.onsuccess = () => {
                const w = (all.result as { cid: string; status: string }[]).find(
                  (x) => x.status === 'resizing' || x.status === 'compressing',
                );
                if (!w) return void setTimeout(look, 20);
                if (!evict || !db.objectStoreNames.contains('originals')) {
                  db.close();
                  return resolve(w.cid);
                }
                // The browser evicted the stored pick (or never stored it): nothing of it is left here.
                const del = db.transaction('originals', 'readwrite').objectStore('originals').delete(w.cid);
                del.onsuccess = () => {
                  db.close();
                  resolve(w.cid);
                };
              };
            };
          };
          look();
        }),
      !!opts.evictOriginal,
    );
    await this.page.reload();
    return cid;
  }

  startButton(): Locator {
    return this.page.getByTestId('start');
  }

  async screenshot(name: string) {
    await this.page.screenshot({ path: shot(name), fullPage: true });
  }
}
