/** Page object for what the workspace keeps in the browser (IndexedDB 'pixmill', table works) and the server's view of a job. */
import { expect, type Page } from '@playwright/test';
import { userToken } from './account.js';

export interface StoredWork {
  cid: string;
  status: string;
  transId?: string;
  filename: string;
}

/** The works this browser has stored (what a reopened tab loads). */
export async function storedWorks(page: Page): Promise<StoredWork[]> {
  return page.evaluate(
    () =>
      new Promise<StoredWork[]>((resolve, reject) => {
        const req = indexedDB.open('pixmill');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains('works')) return resolve([]);
          const all = db.transaction('works').objectStore('works').getAll();
          all.onsuccess = () => resolve(all.result as StoredWork[]);
          all.onerror = () => reject(all.error);
        };
      }),
  );
}

/** Waits until the server says the job is finished (GET /web_api/v1/progress, as the workspace polls it). */
export async function waitServerFinished(page: Page, transId: string, token: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const r = await page.request.get('/web_api/v1/progress', { params: { trans_id: transId, user_token: token } });
        const d = ((await r.json()) as { data?: { status?: string; error?: string } }).data;
        // a failed job's reason shows in the assertion message
        return d?.error ? `${d.status}: ${d.error}` : d?.status;
      },
      { timeout: 120_000 },
    )
    .toBe('finish');
}

/** Credits the server has counted as used for the logged-in browser (GET /api/v2/point). */
export async function usedCredits(page: Page): Promise<number> {
  const r = await page.request.get('/api/v2/point', { params: { guest_token_v2: await userToken(page) } });
  return ((await r.json()) as { data: { used_num: number } }).data.used_num;
}
