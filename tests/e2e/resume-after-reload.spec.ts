// Resume of queued works after a reload, at every stage (issue 47): a reload or a closed tab while a
// batch is prepared, in the middle of a sliced upload, between Start and the server hearing of it, and
// with one work processing and one waiting. Each ends with every picked file a card, every started
// work a result, the credits spent equal to the results, and nothing twice on the server.
import { expect, test, type Page, type Route } from '@playwright/test';
import fs from 'node:fs';
import { creditsPill, userToken } from './pages/account.js';
import { controlledBySw } from './pages/offline.js';
import { storedUploads } from './pages/pwaHarness.js';
import {
  cardsByStatus,
  closeAndReopen,
  expectAllCards,
  hardToCompress,
  photos,
  proOnWorkspace,
  serverRecord,
  startAllReady,
  whilePreparing,
} from './pages/resume.js';
import { storedWorks } from './pages/storedWorks.js';
import { shot, type Workspace } from './pages/workspace.js';

async function shots(page: Page, name: string) {
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 812 });
    await page.screenshot({ path: shot(`${name}-${width}`) });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** Uploads a file as the logged-in account without this page (what another device of the account does). */
async function uploadElsewhere(page: Page, file: string): Promise<void> {
  const r = await page.request.post('/web_api/v1/upload', {
    multipart: {
      user_token: await userToken(page),
      job: 'compress',
      file: { name: 'elsewhere.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(file) },
    },
  });
  expect(((await r.json()) as { code: number }).code).toBe(200);
}

/** Images the page shows broken (loaded, no pixels): their addresses. */
function brokenImages(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('main img')]
      .map((i) => i as HTMLImageElement)
      .filter((i) => i.complete && i.naturalWidth === 0)
      .map((i) => i.src.slice(0, 80)),
  );
}

async function expectFinal(
  ws: Workspace,
  email: string,
  spentBefore: number,
  picked: number,
  started: number,
  uploadedElsewhere = 0,
) {
  await expectAllCards(ws, picked, started ? 'finished' : 'ready');
  const record = serverRecord(email);
  expect(record).toMatchObject({
    uploads: picked + uploadedElsewhere,
    distinctUploads: picked + uploadedElsewhere,
    works: started,
    startedUploads: started,
    finished: started,
  });
  expect(record.spent - spentBefore).toBe(started);
}

test('a tab closed while a batch of 6 is prepared: reopened, all 6 are prepared and uploaded once', async ({
  page,
  context,
}) => {
  // Six 40 MP photos are made, resized twice (before and after the tab closes) and uploaded.
  test.setTimeout(300_000);
  const { email, ws } = await proOnWorkspace(page, 'resume-prep');
  const spent = serverRecord(email).spent;
  // 40 MP photos on Pro (34 MP): each is resized to fit the plan, which takes a moment of the worker.
  await ws.chooseFeature('denoise');
  const files = await photos(6, 8000, 5000);
  await ws.upload(...files);
  // Files being prepared are listed under Processing.
  await ws.tab('processing').click();
  await whilePreparing(ws);
  const again = await closeAndReopen(page, context);
  await again.ws.tab('processing').click();
  await shots(again.page, 'resume-prep-reopened');
  await expectFinal(again.ws, email, spent, 6, 0);
  await shots(again.page, 'resume-prep-ready');
});

test('a reload in the middle of a 20 MB sliced upload: it goes on from its slices, then is started and charged once', async ({
  page,
  context,
}) => {
  // Compressing 20 MB of noise takes the server a while on this shared machine.
  test.setTimeout(300_000);
  const { email, ws } = await proOnWorkspace(page, 'resume-slices');
  const spent = serverRecord(email).spent;
  let sent = 0;
  let reloaded = false;
  const held: Route[] = [];
  await context.route('**/api/v2/upload_slice', async (route) => {
    if (reloaded) return route.continue();
    // Slice 3 never gets an answer: the page goes away while it is in flight.
    if (++sent === 3) return void held.push(route);
    return route.continue();
  });
  await ws.chooseFeature('compress');
  await ws.upload(await hardToCompress());
  await expect.poll(() => sent, { timeout: 90_000 }).toBe(3);
  const [item] = await storedUploads(page);
  expect(item).toMatchObject({ acked: [1, 2], uploadStatus: 'uploading' });
  expect(item.totalSlices).toBeGreaterThanOrEqual(4);
  await shots(page, 'resume-slices-before');
  reloaded = true;
  await page.reload();
  await expect(ws.card('ready')).toHaveCount(1, { timeout: 90_000 });
  await startAllReady(ws);
  await expectFinal(ws, email, spent, 1, 1);
  await shots(page, 'resume-slices-finished');
});

test('a reload after Start, before the server heard of it: both works are started once after the reload', async ({
  page,
}) => {
  const { email, ws } = await proOnWorkspace(page, 'resume-start');
  const spent = serverRecord(email).spent;
  await ws.chooseFeature('compress');
  await ws.upload(...(await photos(2, 1600, 1000)));
  await expect(ws.card('ready')).toHaveCount(2, { timeout: 60_000 });
  // The first start never reaches the server: the page goes away while it is on its way.
  let asked = 0;
  await page.route('**/web_api/v1/transform', () => void asked++);
  expect(await startAllReady(ws)).toBe(2);
  await expect.poll(() => asked, { timeout: 30_000 }).toBe(1);
  expect(serverRecord(email).works).toBe(0);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.reload();
  await expect(ws.page.getByTestId('workspace')).toBeVisible({ timeout: 30_000 });
  await ws.tab('processing').click();
  await shots(page, 'resume-start-reloaded');
  await expectFinal(ws, email, spent, 2, 2);
  await shots(page, 'resume-start-finished');
});

test('a reload with one work processing and one waiting: both finish, each processed and charged once', async ({
  page,
  context,
}) => {
  const { email, ws } = await proOnWorkspace(page, 'resume-waiting');
  const spent = serverRecord(email).spent;
  await ws.chooseFeature('compress');
  await ws.upload(...(await photos(2, 1600, 1000)));
  await expect(ws.card('ready')).toHaveCount(2, { timeout: 60_000 });
  // The server holds the first work until the page is gone, so the second is still waiting.
  const held: Route[] = [];
  await context.route('**/web_api/v1/progress*', (route) => void held.push(route));
  await startAllReady(ws);
  await expect
    .poll(async () => (await storedWorks(page)).map((w) => `${w.status}:${w.transId ? 'sent' : '-'}`).sort(), {
      timeout: 30_000,
    })
    .toEqual(['processing:sent', 'waiting:-']);
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  const again = await closeAndReopen(page, context);
  await again.ws.tab('processing').click();
  await shots(again.page, 'resume-waiting-reopened');
  await expectFinal(again.ws, email, spent, 2, 2);
  expect(await cardsByStatus(again.ws)).toEqual({ finished: 2 });
  await shots(again.page, 'resume-waiting-finished');
});

test.describe('offline', () => {
  // The offline reload is served by the service worker's precache.
  test.use({ serviceWorkers: 'allow' });

  test('an offline reload keeps the account; a Start offline waits and runs once when the network returns', async ({
    page,
    context,
  }) => {
    const { email, ws } = await proOnWorkspace(page, 'resume-offline');
    const spent = serverRecord(email).spent;
    await controlledBySw(page);
    await ws.chooseFeature('compress');
    await ws.upload(...(await photos(1, 1600, 1000)));
    await expect(ws.card('ready')).toHaveCount(1, { timeout: 60_000 });
    // An upload made elsewhere (another device): listed under Recent uploads with the server's thumbnail.
    await uploadElsewhere(page, (await photos(1, 800, 500))[0]!);
    await page.reload();
    await expect(page.getByTestId('upload-history')).toBeVisible({ timeout: 30_000 });
    await expect(ws.card('ready')).toHaveCount(1, { timeout: 30_000 });

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByTestId('workspace')).toBeVisible({ timeout: 30_000 });
    // The last known account, marked offline: Pro with its credits, logged in; no phantom counts.
    const pill = creditsPill(page);
    await expect(pill).toHaveAttribute('data-offline', '1', { timeout: 30_000 });
    await expect(pill).toContainText('500');
    await expect(pill).toContainText('Pro');
    await expect(page.getByRole('link', { name: 'My account' })).toBeVisible();
    await expect(ws.tab('processing')).toContainText('0');
    const card = ws.card('ready');
    await expect(card).toHaveCount(1, { timeout: 30_000 });
    await expect(card.locator('.work-thumb img')).toHaveAttribute('src', /^data:image\//);
    // Thumbnails come from this device: no image on the page is broken.
    await expect.poll(() => brokenImages(page)).toEqual([]);
    await shots(page, 'resume-offline-reloaded');

    // Start offline: it waits for the network, says so, and nothing reaches the server.
    await startAllReady(ws);
    await ws.tab('processing').click();
    await expect(ws.card('waiting').getByTestId('start-waits-for-network')).toBeVisible();
    await shots(page, 'resume-offline-waiting');
    expect(serverRecord(email).works).toBe(0);

    await context.setOffline(false);
    await expect(pill).not.toHaveAttribute('data-offline', '1', { timeout: 30_000 });
    await expectFinal(ws, email, spent, 1, 1, 1);
    await shots(page, 'resume-offline-finished');
  });
});
