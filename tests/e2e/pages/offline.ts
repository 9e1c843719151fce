/** Page object for the offline pieces of the workspace: service worker control, the offline queue. */
import { expect, type Page } from '@playwright/test';

/** Waits until the service worker controls the page (a reload may be needed the first time). */
export async function controlledBySw(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
}

/** Upload items stored in IndexedDB with their state (without bytes) that are still to be uploaded (not 'success'). */
export function storedQueue(
  page: Page,
): Promise<{ cid: string; filename: string; uploadStatus: string; createdAt: number }[]> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('pixmill');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('uploads', 'readonly');
          const all = tx.objectStore('uploads').getAll();
          all.onsuccess = () => {
            resolve(
              (all.result as { cid: string; filename: string; uploadStatus: string; createdAt: number }[])
                .filter((item) => item.uploadStatus !== 'success')
                .map(({ cid, filename, uploadStatus, createdAt }) => ({ cid, filename, uploadStatus, createdAt }))
                .sort((a, b) => a.createdAt - b.createdAt),
            );
            open.result.close();
          };
        };
      }),
  );
}
