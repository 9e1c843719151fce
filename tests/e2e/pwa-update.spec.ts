// A new deployment (a changed sw.js) is offered with the "update available" prompt; accepting it
// activates the new service worker and reloads the page under it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/server.js';

// a new service worker version is what is tested (the browser project blocks it by default: playwright.config.ts)
test.use({ serviceWorkers: 'allow' });

// Its own server over a copy of the build, so the test can "deploy" a new version.
let srv: TestServer;
let clientDir: string;
test.beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-deploy-'));
  fs.cpSync(process.env.CLIENT_DIR ?? path.resolve(import.meta.dirname, '../../dist'), clientDir, { recursive: true });
  srv = await startTestServer({ clientDir });
});
test.afterAll(async () => {
  await srv?.stop();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

test('a new version shows the update prompt; Reload switches to it', async ({ page }) => {
  await page.goto(`${srv.url}/`);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  await expect(page.getByTestId('pwa-update')).toHaveCount(0);
  const firstScript = await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL);

  // Deploy: the service worker script changes.
  fs.appendFileSync(path.join(clientDir, 'sw.js'), `\n// deployed ${Date.now()}\n`);
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r!.update()));
  const prompt = page.getByTestId('pwa-update');
  await expect(prompt).toBeVisible({ timeout: 30_000 });
  await expect(prompt).toContainText('A new version of Pixmill is available.');
  // The new worker waits for the user; the old one still controls the page.
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => !!r!.waiting))).toBe(true);

  await page.evaluate(() => ((window as any).__beforeUpdate = true));
  await prompt.getByRole('button', { name: 'Reload' }).click();
  // The page reloaded (the marker is gone) under the new worker, and nothing waits any more.
  // While the reload is under way an evaluate can land in the dying page: count that as "not yet".
  const settled = <T>(fn: () => T | Promise<T>) => page.evaluate(fn).catch(() => 'navigating' as const);
  await page.waitForLoadState('load');
  await expect.poll(() => settled(() => (window as any).__beforeUpdate ?? false), { timeout: 30_000 }).toBe(false);
  await expect
    .poll(() => settled(() => navigator.serviceWorker.getRegistration().then((r) => !r!.waiting && !!r!.active)))
    .toBe(true);
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(firstScript);
  await expect(page.getByTestId('pwa-update')).toHaveCount(0);
  const activeScript = await page.evaluate(() => fetch('/sw.js', { cache: 'no-store' }).then((r) => r.text()));
  expect(activeScript).toContain('// deployed');
});
