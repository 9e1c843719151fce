/**
 * The first-impression screens (home, a feature page, first use, the workspace, the ready moment, the zoomed
 * preview, offline) at one size and language, shot for review by eye under tests/e2e/screenshots/ while
 * each step asserts what it shows (review-first-impression-shots.spec.ts, the review suite).
 */
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { finishedSample } from './preview.js';
import { shot, Workspace } from './workspace.js';

export const SCREEN_SIZES = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'mobile', width: 375, height: 812 },
] as const;
export type ScreenSize = (typeof SCREEN_SIZES)[number];

export async function firstImpressionScreens(
  { page, context, baseURL, browser }: { page: Page; context: BrowserContext; baseURL: string | undefined; browser: Browser },
  v: ScreenSize,
  lng: 'en' | 'de',
): Promise<void> {
  const prefix = lng === 'en' ? '' : `/${lng}`;
  await page.setViewportSize({ width: v.width, height: v.height });
  const tag = `${v.name}-${lng}`;
  let ws = new Workspace(page);
  for (const [key, path] of [['home', '/'], ['enlarger', '/image-enlarger/'], ['remove-bg', '/remove-background/']] as const) {
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
  await page.waitForFunction(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(true)))));
  await page.screenshot({ path: shot(`first-impression-ready-${tag}`) });
  await page.getByTestId('ready-preview').click();
  await expect.poll(() => page.getByTestId('img-after').evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
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
}
