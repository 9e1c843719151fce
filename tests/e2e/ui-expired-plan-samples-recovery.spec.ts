// Spec rules pinned in the browser on the real server:
// expired accounts' guest-like allowance, sample enlarge results at 6x/8x, the registered user's
// "free points remain" text, the generic 'Encountered a problem, please retry.', and the reset of
// stored works to ready on load.
import { expect, test, type Page } from '@playwright/test';
import { admin, AuthPage, expectCredits, uniqueEmail } from './pages/account.js';
import { shot, Workspace } from './pages/workspace.js';

const firstVisitDone = async (page: Page, baseURL: string) =>
  page.context().addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL }]);

async function registered(page: Page, tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  await new AuthPage(page).register(email);
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  return email;
}

test('an expired plan leaves the guest-like allowance: 3 credits, level Expired, the account page says so', async ({
  page,
  baseURL,
}) => {
  await firstVisitDone(page, baseURL!);
  const email = await registered(page, 'expired');
  await admin(email, 'grant', email, 'pro');
  expect(await admin(email, 'expire', email)).toMatchObject({ level: 'expired', left_credits: 3 });
  await page.goto('/my-account/');
  await expect(page.getByTestId('plan-expired')).toContainText('free-plan limits apply, with 3 free credits', {
    timeout: 30_000,
  });
  await expectCredits(page, 3);
  await expect(page.getByTestId('credits')).toContainText('Expired');
  await page.screenshot({ path: shot('expired-allowance'), fullPage: true });
});

test('a Pro user runs the enlarge sample at 6x and 8x: both results exist at w×scale', async ({ page, baseURL }) => {
  await firstVisitDone(page, baseURL!);
  const email = await registered(page, 'sample8');
  await admin(email, 'grant', email, 'pro');
  const ws = new Workspace(page);
  await ws.open();
  await expect(page.getByTestId('credits')).toContainText('Pro', { timeout: 30_000 });
  await ws.chooseFeature('enlarge');
  const manifest = (await (await page.request.get('/samples/manifest.json')).json()) as Record<
    string,
    { w: number; h: number }[]
  >;
  // One sample each (a sample is added once): the first at 6x, the second at 8x.
  for (const [i, scale] of [6, 8].entries()) {
    const sample = manifest.enlarge![i]!;
    await page.getByRole('radio', { name: `${scale}x` }).click();
    await page.getByTestId('upload-tab-sample').click();
    await page.getByTestId('sample').nth(i).click();
    await ws.card('ready').first().locator('input[type=checkbox]').check({ timeout: 30_000 });
    await ws.startButton().click();
    await expect(page.getByTestId('ready-toast')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('ready-preview').click();
    const after = page.getByTestId('img-after');
    await expect
      .poll(() => after.evaluate((i) => (i as HTMLImageElement).naturalWidth), { timeout: 15_000 })
      .toBe(sample.w * scale);
    expect(await after.evaluate((i) => (i as HTMLImageElement).naturalHeight)).toBe(sample.h * scale);
    await expect(page.getByTestId('preview-output-size')).toHaveText(`${sample.w * scale}×${sample.h * scale}`);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('preview-dialog')).toHaveCount(0);
    await ws.tab('uploaded').click();
  }
});

test('a registered user finishing a job is told how many free points remain', async ({ page, baseURL }) => {
  await firstVisitDone(page, baseURL!);
  await registered(page, 'points');
  const ws = new Workspace(page);
  await ws.open();
  await expectCredits(page, 3);
  await ws.chooseFeature('denoise');
  await ws.processFirstSample();
  // A sample costs nothing: all 3 remain.
  await expect(page.getByTestId('ready-toast')).toContainText('3 free points remain.', { timeout: 30_000 });
});

test.describe('a proxy error page', () => {
  // The service worker passes API calls to the network (NetworkOnly); a request it forwards is made by the
  // worker, which page.route does not see, so the faked proxy page would be missed whenever the worker
  // controls the page first. Without the worker the page's own request is routed.
  test.use({ serviceWorkers: 'block' });

  test('an answer that is not ours shows the generic text: Encountered a problem, please retry.', async ({
    page,
    baseURL,
  }) => {
    await firstVisitDone(page, baseURL!);
    await registered(page, 'generic');
    // The account page's licence call gets a proxy's error page instead of an answer of ours.
    await page.route('**/api/v2/license', (r) =>
      r.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>Bad gateway</body></html>' }),
    );
    await page.goto('/my-account/');
    // (The header's own licence call fails the same way: each says it, with the catalogue's texts.)
    await expect(
      page.getByTestId('message-dialog').filter({ hasText: 'Encountered a problem, please retry.' }).first(),
    ).toBeVisible({ timeout: 30_000 });
  });
});

test('on load, stored works that cannot go on are reset to ready; started ones are not', async ({ page, baseURL }) => {
  await firstVisitDone(page, baseURL!);
  const ws = new Workspace(page);
  await ws.open();
  const statuses = ['waiting', 'processing', 'processFailed', 'imageTooLarge', 'uploadFailed', 'resizing', 'finished'];
  // The app creates its database on its first write (src/db/lazy.ts), a moment after the workspace
  // opens: opening it here before that would create an empty one without the app's stores.
  await expect
    .poll(() => page.evaluate(async () => (await indexedDB.databases()).some((d) => d.name === 'pixmill')), {
      timeout: 30_000,
    })
    .toBe(true);
  await page.evaluate(async (statuses) => {
    const db = await new Promise<IDBDatabase>((ok, ko) => {
      const r = indexedDB.open('pixmill');
      r.onsuccess = () => ok(r.result);
      r.onerror = () => ko(r.error);
    });
    const tx = db.transaction(['works', 'meta'], 'readwrite');
    const now = Date.now();
    // Each of them reached the server (an uid): its bytes are there, so ready can start it again.
    statuses.forEach((status, i) =>
      tx.objectStore('works').put({
        cid: `stored-${status}`,
        uid: `u-${i}`,
        filename: `${status}.jpg`,
        filesize: 1000,
        w: 40,
        h: 30,
        status,
        selected: false,
        workType: 'denoise',
        updatedAt: now,
      }),
    );
    // One whose preparation was cut off (no uid, no bytes on this device) cannot be ready: it asks for the file again.
    tx.objectStore('works').put({
      cid: 'stored-cut-off',
      filename: 'cut-off.jpg',
      filesize: 1000,
      w: 40,
      h: 30,
      status: 'waiting',
      selected: false,
      workType: 'denoise',
      updatedAt: now,
    });
    tx.objectStore('meta').put({ key: 'lastUpdate', value: now });
    await new Promise((ok) => (tx.oncomplete = ok));
    db.close();
  }, statuses);
  await page.reload();
  await expect(page.getByTestId('workspace')).toBeVisible({ timeout: 30_000 });
  // Started means started (issue 47; README, Readings of the spec): the waiting and the processing work go on
  // and are never reset; the four that cannot go on are ready again; the cut-off one failed (interrupted); the
  // finished one stays finished.
  await expect(ws.card('ready')).toHaveCount(4, { timeout: 30_000 });
  for (const started of ['waiting.jpg', 'processing.jpg'])
    await expect(page.locator('[data-testid="work-card"][data-status="ready"]', { hasText: started })).toHaveCount(0);
  await expect(
    page.locator('[data-testid="work-card"][data-status="uploadFailed"]', { hasText: 'cut-off' }),
  ).toHaveCount(1);
  await ws.tab('processed').click();
  await expect(ws.card('finished')).toHaveCount(1);
});
