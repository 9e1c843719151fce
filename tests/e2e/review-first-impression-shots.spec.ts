// Screenshots of the first-impression screens, desktop (1366) and mobile (375), en and de — for review
// by eye (tests/e2e/screenshots/first-impression-*.png). Each step still asserts what it shows.
// Review suite only (`npm run test:review`): what these screens show is the gate's in ui-first-impression
// (first use asks, the ready moment, zoom, the offline banner), ui-mobile-actionbar (Start on a phone) and
// ui-layout-overflow (German layouts at 375 and 1366 px).
import { expect, test } from '@playwright/test';
import { finishedSample } from './pages/preview.js';
import { shot, Workspace } from './pages/workspace.js';

// the offline step needs the service worker
test.use({ serviceWorkers: 'allow' });

const VARIANTS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'mobile', width: 375, height: 812 },
] as const;

for (const v of VARIANTS) {
  for (const lng of ['en', 'de'] as const) {
    const prefix = lng === 'en' ? '' : `/${lng}`;
    test(`first-impression screens, ${v.name} ${lng}`, async ({ page, context, baseURL, browser }) => {
      await page.setViewportSize({ width: v.width, height: v.height });
      const tag = `${v.name}-${lng}`;
      let ws = new Workspace(page);
      for (const [key, path] of [
        ['home', '/'],
        ['enlarger', '/image-enlarger/'],
        ['remove-bg', '/remove-background/'],
      ] as const) {
        await page.goto(`${prefix}${path}`);
        await expect(page.getByTestId('credits')).toBeVisible({ timeout: 30_000 });
        await page.screenshot({ path: shot(`first-impression-${key}-${tag}`) });
      }
      // First use on /upload/: the image asks what to do.
      await ws.open(`${prefix}/upload/`);
      await ws.upload('chelsea.png');
      await expect(page.getByTestId('choose-feature-dialog')).toBeVisible({ timeout: 60_000 });
      await page.screenshot({ path: shot(`first-impression-first-use-${tag}`) });
      await page.getByTestId('choose-later').click();
      // The workspace itself: on a phone the action bar holds Start at the bottom of the screen.
      await expect(ws.card('ready')).toHaveCount(1, { timeout: 60_000 });
      if (v.name === 'mobile') await expect(page.getByTestId('bar-start')).toBeInViewport();
      else await expect(page.getByTestId('action-bar')).toBeHidden();
      await page.screenshot({ path: shot(`first-impression-workspace-${tag}`) });

      // The ready moment (a sample, in a fresh browser profile), then its preview zoomed in.
      const ctx2 = await browser.newContext({ viewport: { width: v.width, height: v.height }, baseURL });
      await ctx2.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
      await page.close();
      page = await ctx2.newPage();
      context = ctx2;
      ws = new Workspace(page);
      await finishedSample(page, ws, prefix);
      // The ready moment scrolls the highlighted result into view (smoothly: wait for it).
      await expect(page.locator('[data-testid="work-card"][data-new="true"]')).toBeInViewport({ ratio: 0.9 });
      await page.waitForFunction(
        () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(true)))),
      );
      await page.screenshot({ path: shot(`first-impression-ready-${tag}`) });
      await page.getByTestId('ready-preview').click();
      await expect
        .poll(() => page.getByTestId('img-after').evaluate((i) => (i as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      const box = (await page.getByTestId('stage').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -100);
      await expect(page.getByTestId('navigator')).toBeVisible();
      await page.screenshot({ path: shot(`first-impression-preview-zoomed-${tag}`) });
      await page.keyboard.press('Escape');

      // Offline: one banner, no dialog.
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
      await page.reload();
      await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
      await context.setOffline(true);
      await page.goto(`${prefix}/image-enlarger/`);
      await expect(page.getByTestId('pwa-offline')).toBeInViewport();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await page.screenshot({ path: shot(`first-impression-offline-${tag}`) });
      await context.setOffline(false);
      await ctx2.close();
    });
  }
}
