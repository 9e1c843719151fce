// The real workspace: a pro user's 16 MB compress file goes as 4 slices; the page is reloaded while
// slice 3 is in flight, and the workspace resumes by itself with slice 3 (no new drop needed).
import { expect, test, type Route } from '@playwright/test';
import { admin, AuthPage, expectCredits, uniqueEmail } from './pages/account.js';
import { storedUploads } from './pages/pwaHarness.js';
import { Workspace } from './pages/workspace.js';

// Requests go straight to the network so the test's route sees the worker's slice posts.
test.use({ serviceWorkers: 'block' });

test('reload during a sliced upload in the workspace resumes from the last acknowledged slice', async ({
  page,
  context,
}) => {
  const email = uniqueEmail('resume-ws');
  await new AuthPage(page).register(email, 'resume1234');
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  await admin(email, 'grant', email, 'pro');

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

  const ws = new Workspace(page);
  await ws.openFeaturePage('/image-compressor/');
  await expectCredits(page, 500);
  await ws.upload('elephants-5640x3172.jpg');
  await expect.poll(() => before, { timeout: 60_000 }).toBe(3);
  const [item] = await storedUploads(page);
  expect(item).toMatchObject({ totalSlices: 4, acked: [1, 2], uploadStatus: 'uploading' });

  reloaded = true;
  await ws.open('/batch-process/');
  const done = page.locator(`[data-testid="work-card"][data-status="ready"][data-uid="${item.uid}"]`);
  await expect(done).toHaveCount(1, { timeout: 60_000 });
  // Only slices 3 and 4 were sent after the reload.
  expect(after).toBe(2);
  await expect.poll(() => storedUploads(page)).toEqual([]);
});
