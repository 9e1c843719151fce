// A pro user's 16 MB compress upload goes as 4 slices; the page is reloaded while slice 3 is in flight,
// and after the reload the upload resumes with slice 3 instead of starting over.
import path from 'node:path';
import { expect, test, type Route } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/server.js';
import { TEST_PAGES_DIR } from '../support/testPages.js';
import { fixture, UploadHarness } from './pages/pwaHarness.js';

// Its own server: the test needs a pro account, made through the services.
let srv: TestServer;
let token: string;
test.beforeAll(async () => {
  srv = await startTestServer(
    { clientDir: process.env.CLIENT_DIR ?? path.resolve(import.meta.dirname, '../../dist') },
    { testPages: TEST_PAGES_DIR },
  );
  const pro = await srv.ctx.services.accounts.register({
    email: 'pro-resume@example.com',
    password: 'abcd1234',
    confirm_password: 'abcd1234',
  });
  await srv.ctx.services.accounts.setPlan(pro.id, 'pro');
  token = await srv.ctx.services.tokens.userTokenFor(pro.id);
});
test.afterAll(() => srv?.stop());

// Requests go straight to the network so the test's route sees the worker's slice posts.
test.use({ serviceWorkers: 'block' });

test('reload during a sliced upload resumes from the last acknowledged slice', async ({ page, context }) => {
  await context.addInitScript((t) => localStorage.setItem('harness-token', t), token);
  let before = 0;
  let after = 0;
  let reloaded = false;
  const held: Route[] = [];
  await context.route('**/api/v2/upload_slice', async (route) => {
    if (reloaded) {
      after++;
      return route.continue();
    }
    before++;
    // Slice 3 never gets an answer: the page goes away while it is in flight.
    if (before === 3) return void held.push(route);
    return route.continue();
  });

  const h = new UploadHarness(page);
  await h.open({ level: 'pro', job: 'compress' }, srv.url);
  await h.drop(fixture('elephants-5640x3172.jpg'));
  await expect.poll(() => before, { timeout: 60_000 }).toBe(3);
  const [item] = await h.storedUploads();
  expect(item).toMatchObject({ totalSlices: 4, acked: [1, 2], uploadStatus: 'uploading' });
  expect(item.uid).toBeTruthy();

  reloaded = true;
  await page.reload();
  await expect(page.locator('main[data-ready="1"]')).toBeVisible();
  const done = h.work('ready');
  await expect(done).toHaveCount(1, { timeout: 60_000 });
  expect(await done.getAttribute('data-cid')).toBe(item.cid);
  expect(await done.getAttribute('data-uid')).toBe(item.uid);
  // Only slices 3 and 4 were sent after the reload.
  expect(after).toBe(2);
  expect(await h.storedUploads()).toEqual([]);
  const stored = (await h.serverUploads()).find((u) => u.uid === item.uid);
  expect(stored).toMatchObject({ file_size: 16376668, w: 5640, h: 3172 });
});
