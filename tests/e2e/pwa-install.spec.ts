// The manifest + service worker make Pixmill installable in Chromium; API calls never come from a cache.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { chromium, expect, test } from '@playwright/test';

// the installable PWA: its service worker is what is tested (the browser project blocks it by default: playwright.config.ts)
test.use({ serviceWorkers: 'allow' });

test('Chromium finds no installability errors and reads the manifest', async ({ request, baseURL }, info) => {
  // Installation is never offered in incognito, and test contexts are incognito: use a real profile.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-install-'));
  const context = await chromium.launchPersistentContext(profile, { ...info.project.use.launchOptions, baseURL });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto('/');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors).toEqual([]);
  const { errors, data } = await cdp.send('Page.getAppManifest');
  expect(errors).toEqual([]);
  const manifest = JSON.parse(data!);
  expect(manifest).toMatchObject({
    name: 'Pixmill',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: expect.stringMatching(/^#/),
  });
  const purposes = manifest.icons.map((i: { purpose?: string }) => i.purpose ?? 'any');
  expect(purposes).toContain('maskable');
  // Every icon is a real PNG of the size it claims.
  for (const icon of manifest.icons as { src: string; sizes: string }[]) {
    const res = await request.get(icon.src);
    expect(res.ok()).toBe(true);
    const meta = await sharp(await res.body()).metadata();
    expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
    expect(meta.format).toBe('png');
  }
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
});

test('API calls are NetworkOnly: offline they fail instead of coming from a cache', async ({ page, context }) => {
  await page.goto('/');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  const online = await page.evaluate(() => fetch('/api/health').then((r) => r.json()));
  expect(online).toMatchObject({ code: 200 });
  await context.setOffline(true);
  const offline = await page.evaluate(() =>
    Promise.all([
      fetch('/api/health').then(
        () => 'answered',
        () => 'failed',
      ),
      fetch('/web_api/v1/upload/list', { method: 'POST', body: new URLSearchParams({ limit: '1' }) }).then(
        () => 'answered',
        () => 'failed',
      ),
    ]),
  );
  expect(offline).toEqual(['failed', 'failed']);
  // Nothing under the API paths was ever stored by the service worker.
  const cachedApi = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
    return urls.filter((u) => /^\/(api|web_api|site-ajax)(\/|$)/.test(u));
  });
  expect(cachedApi).toEqual([]);
  await context.setOffline(false);
});
