// On a phone, Start and Download sit in an action bar at the bottom of the
// screen, reachable without scrolling; the "ready" toast stays above it.
import { expect, test } from '@playwright/test';
import { Workspace } from './pages/workspace.js';

test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

test('Start and Download from the action bar without scrolling; the ready toast does not cover it', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  const ws = new Workspace(page);
  await ws.open();
  await ws.chooseFeature('denoise');
  await page.getByTestId('upload-tab-sample').click();
  await page.getByTestId('sample').first().click();
  await ws.card('ready').locator('input[type=checkbox]').check();
  await page.evaluate(() => window.scrollTo(0, 0));
  const start = page.getByTestId('bar-start');
  await expect(start).toBeInViewport();
  await expect(start).toHaveText(/\(1\)/);
  // The panel's own Start button is far below the fold.
  await expect(ws.startButton()).not.toBeInViewport();
  await start.click();
  const toast = page.getByTestId('ready-toast');
  await expect(toast).toBeVisible({ timeout: 30_000 });
  const bar = (await page.getByTestId('action-bar').boundingBox())!;
  const t = (await toast.boundingBox())!;
  expect(t.y + t.height).toBeLessThanOrEqual(bar.y + 1);
  // Processed: the bar downloads the new result.
  await expect(ws.tab('processed')).toHaveAttribute('aria-selected', 'true');
  const download = page.getByTestId('bar-download');
  await expect(download).toBeInViewport();
  await expect(download).toContainText('Coffee');
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(/^denoise-Coffee\.jpe?g$/);
  const fs = await import('node:fs');
  expect(fs.statSync(await file.path()).size).toBeGreaterThan(1000);
});
