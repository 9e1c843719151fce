// With the network gone, a reload still shows the workspace and the works stored on this device,
// with the offline notice.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { fixture, UploadHarness } from './pages/pwaHarness.js';
import { controlledBySw } from './pages/offline.js';
import { Hero } from './pages/showcase.js';

// the service worker and its caches are what is tested (the browser project blocks it by default: playwright.config.ts)
test.use({ serviceWorkers: 'allow' });

const clientDir = () => process.env.CLIENT_DIR ?? path.resolve(import.meta.dirname, '../../dist');

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
  const sampleDir = path.join(clientDir(), 'samples');
  // A sample no hero shows: the heroes' pairs are precached (next test), every other sample is not.
  const sw = fs.readFileSync(path.join(clientDir(), 'sw.js'), 'utf8');
  const sample = fs
    .readdirSync(sampleDir, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .find((f) => /\.(jpe?g|png)$/.test(f) && !sw.includes(`"/samples/${f}"`));
  expect(sample, 'the build ships sample images beyond the heroes').toBeDefined();
  const url = `/samples/${sample}`;
  const size = fs.statSync(path.join(sampleDir, sample!)).size;

  await page.goto('/');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  // Not part of the precache: only the first use stores it.
  expect(await page.evaluate((u) => caches.match(u).then((r) => !!r), url)).toBe(false);
  expect(
    await page.evaluate(
      (u) =>
        fetch(u)
          .then((r) => r.blob())
          .then((b) => b.size),
      url,
    ),
  ).toBe(size);
  await expect
    .poll(() =>
      page.evaluate(
        (u) =>
          caches
            .open('pixmill-samples')
            .then((c) => c.match(u))
            .then((r) => !!r),
        url,
      ),
    )
    .toBe(true);

  await context.setOffline(true);
  expect(
    await page.evaluate(
      (u) =>
        fetch(u)
          .then((r) => r.blob())
          .then((b) => b.size),
      url,
    ),
  ).toBe(size);
  await context.setOffline(false);
});

test("offline, a feature page never opened online still shows its before/after hero (the heroes' samples are precached)", async ({
  page,
  context,
}) => {
  // Only the home page is visited online: the feature page's samples can come only from the precache.
  await page.goto('/');
  await controlledBySw(page);
  // The colorizer's "before" (the home page shows only results and its own hero, background removal): in the precache.
  const precached = (p: string) =>
    page.evaluate(
      (p) =>
        caches
          .keys()
          .then(async (ks) =>
            (
              await Promise.all(
                ks.filter((k) => k.includes('precache')).map((k) => caches.open(k).then((c) => c.keys())),
              )
            )
              .flat()
              .some((r) => new URL(r.url).pathname === p),
          ),
      p,
    );
  await expect.poll(() => precached('/samples/colorize/bridge.jpg')).toBe(true);
  await expect.poll(() => precached('/samples/manifest.json')).toBe(true);

  await context.setOffline(true);
  for (const [width, shot] of [
    [1366, 'pwa-offline-hero-1366'],
    [375, 'pwa-offline-hero-375'],
  ] as const) {
    await page.setViewportSize({ width, height: width > 400 ? 800 : 740 });
    await page.goto('/colorize-photo/');
    await expect(page.getByTestId('pwa-offline')).toBeVisible();
    const hero = new Hero(page);
    expect(await hero.settled()).toBe('shown');
    const widths = await hero.naturalWidths();
    expect(
      widths.every((w) => w > 0),
      `decoded widths ${widths}`,
    ).toBe(true);
    await expect(hero.caption()).toHaveText(/“\S.*”/);
    await page.screenshot({ path: `tests/e2e/screenshots/${shot}.png` });
  }
  await context.setOffline(false);
});

test.describe('without the service worker', () => {
  test.use({ serviceWorkers: 'block' });
  test('a hero whose samples cannot load says so (translated) instead of an empty dark box', async ({ page }) => {
    await page.route('**/samples/**', (route) => route.abort('internetdisconnected'));
    await page.goto('/de/denoise-ai/');
    const hero = new Hero(page);
    expect(await hero.settled()).toBe('unavailable');
    await expect(hero.figure()).toHaveText(
      'Die Vorher-Nachher-Beispiele brauchen eine Verbindung. Sie werden geladen, sobald Sie wieder online sind.',
    );
    await expect(hero.figure().locator('img')).toHaveCount(0);
    await page.screenshot({ path: 'tests/e2e/screenshots/pwa-offline-hero-unavailable-de.png' });
  });
});
