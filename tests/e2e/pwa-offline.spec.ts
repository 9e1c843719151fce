// With the network gone, a reload still shows the workspace and the works stored on this device,
// with the offline notice.
import { expect, test } from '@playwright/test';
import { fixture, UploadHarness } from './pages/pwaHarness.js';

test('offline reload shows the workspace, its stored works and the offline notice', async ({ page, context }) => {
  // A real upload on the real server, stored as a work in IndexedDB.
  const h = new UploadHarness(page);
  await h.open({ level: 'guest', job: 'enlarge' });
  await h.drop(fixture('rocket.jpg'));
  const ready = h.work('ready');
  await expect(ready).toHaveCount(1, { timeout: 60_000 });
  const cid = await ready.getAttribute('data-cid');

  // The workspace, once online: the service worker installs and takes the page over.
  await page.goto('/batch-process/');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  await expect(page.locator(`[data-testid="work-card"][data-cid="${cid}"]`)).toBeVisible();

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('pwa-offline')).toBeVisible();
  await expect(page.locator(`[data-testid="work-card"][data-cid="${cid}"]`)).toBeVisible();
  await expect(page.locator(`[data-testid="work-card"][data-cid="${cid}"]`)).toContainText('rocket');
  await context.setOffline(false);
});
