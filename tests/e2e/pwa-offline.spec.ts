// With the network gone, a reload still shows the workspace and the works stored on this device,
// with the offline notice.
import fs from 'node:fs';
import path from 'node:path';
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

test('sample images are cached at runtime (CacheFirst) and still load offline', async ({ page, context }) => {
  const clientDir = process.env.CLIENT_DIR ?? path.resolve(import.meta.dirname, '../../dist');
  const sampleDir = path.join(clientDir, 'samples');
  const sample = fs
    .readdirSync(sampleDir, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .find((f) => /\.(jpe?g|png)$/.test(f));
  expect(sample, 'the build ships sample images').toBeDefined();
  const url = `/samples/${sample}`;
  const size = fs.statSync(path.join(sampleDir, sample!)).size;

  await page.goto('/');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  // Not part of the precache: only the first use stores it.
  expect(await page.evaluate((u) => caches.match(u).then((r) => !!r), url)).toBe(false);
  expect(await page.evaluate((u) => fetch(u).then((r) => r.blob()).then((b) => b.size), url)).toBe(size);
  await expect.poll(() => page.evaluate((u) => caches.open('pixmill-samples').then((c) => c.match(u)).then((r) => !!r), url)).toBe(true);

  await context.setOffline(true);
  expect(await page.evaluate((u) => fetch(u).then((r) => r.blob()).then((b) => b.size), url)).toBe(size);
  await context.setOffline(false);
});
