// The first impression: honest sizes at upload, first use that asks when the page has no feature,
// a visible "ready" moment, Esc and the upload button, offline as a state, the preview's zoom and pan.
import { expect, test } from '@playwright/test';
import { finishedSample } from './pages/preview.js';
import { fixture, shot, Workspace } from './pages/workspace.js';

test('a photo over the plan is resized: the user is told at upload and the size is labelled honestly', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  const ws = new Workspace(page);
  await ws.open();
  await ws.chooseFeature('denoise');
  await ws.upload('elephants-5640x3172.jpg');
  const notice = page.getByTestId('resize-notice');
  await expect(notice).toBeVisible({ timeout: 60_000 });
  // Guest: 2.8 MP binds (no 2000 px side any more) → 2231×1254; the offer names Pro's 34 MP.
  await expect(notice).toContainText('2231×1254');
  await expect(notice).toContainText('2.8 MP');
  await expect(notice).toContainText('34 MP');
  await expect(page.getByTestId('resize-plans')).toBeVisible();
  await ws.screenshot('first-impression-resize-notice');
  const card = ws.card('ready');
  await expect(card).toHaveCount(1, { timeout: 60_000 });
  await expect(card.getByTestId('source-size')).toHaveText('2231×1254');
  await expect(card.getByTestId('resized-note')).toContainText('5640×3172');
  await expect(card).not.toContainText('Original');
});

test('on /upload/ nothing is auto-started with a feature nobody chose: the first image asks', async ({ page }) => {
  const ws = new Workspace(page);
  await ws.open('/upload/');
  await expect(page.getByTestId('credits')).toContainText('3');
  await ws.upload('chelsea.png');
  const ask = page.getByTestId('choose-feature-dialog');
  await expect(ask).toBeVisible({ timeout: 60_000 });
  await ws.screenshot('first-impression-first-use-ask');
  // The image is selected, nothing started, no credit spent.
  await expect(ws.card('ready')).toHaveCount(1);
  await expect(ws.tab('uploaded')).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('choose-later').click();
  await expect(ask).toBeHidden();
  await expect(ws.card('ready').locator('input[type=checkbox]')).toBeChecked();
  await expect(ws.card('processing')).toHaveCount(0);
  await expect(page.getByTestId('credits')).toContainText('3');
});

test('feature page: Upload image is the file picker, a finished job is a ready moment, Esc closes only the preview', async ({
  page,
}) => {
  const ws = new Workspace(page);
  await page.goto('/image-compressor/');
  await expect(page.getByTestId('credits')).toBeVisible({ timeout: 30_000 });
  // One click on "Upload image" is the file chooser (no dialog in between).
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('upload-cta').click()]);
  await chooser.setFiles(fixture('chelsea.png'));
  const popup = page.getByTestId('workspace-dialog');
  await expect(popup).toBeVisible();
  // The page's feature is clear: the guest's first image starts by itself and its preview opens.
  await expect(page.getByTestId('preview-dialog')).toBeVisible({ timeout: 90_000 });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('preview-dialog')).toBeHidden();
  await expect(popup).toBeVisible();

  // A second image, started by hand: when it finishes the view moves to Processed, highlights it and offers Preview/Download.
  await ws.tab('uploaded').click();
  await ws.upload('rocket.jpg');
  const ready = ws.card('ready');
  await expect(ready).toHaveCount(1, { timeout: 60_000 });
  await ready.locator('input[type=checkbox]').check();
  await ws.startButton().click();
  const toast = page.getByTestId('ready-toast');
  await expect(toast).toBeVisible({ timeout: 90_000 });
  await expect(toast).toContainText('rocket');
  await expect(ws.tab('processed')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('[data-testid="work-card"][data-new="true"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="work-card"][data-new="true"]')).toContainText('rocket');
  await ws.screenshot('first-impression-ready-moment');
  await page.getByTestId('ready-preview').click();
  await expect(page.getByTestId('preview-dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('preview-dialog')).toBeHidden();
  await expect(popup).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(popup).toBeHidden();
});

// Offline is a state the service worker gives (the browser project blocks it by default: playwright.config.ts).
test.describe('with the service worker', () => {
  test.use({ serviceWorkers: 'allow' });

  test('offline: one banner in view, no error dialog', async ({ page, context }) => {
    await page.goto('/image-enlarger/');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await page.reload();
    await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
    await context.setOffline(true);
    for (const path of ['/image-enlarger/', '/', '/batch-process/']) {
      await page.goto(path);
      await expect(page.getByTestId('pwa-offline')).toHaveCount(1);
      await expect(page.getByTestId('pwa-offline')).toBeInViewport();
      await expect(page.getByTestId('message-dialog')).toHaveCount(0);
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
    await page.screenshot({ path: shot('first-impression-offline') });
    await context.setOffline(false);
    await expect(page.getByTestId('pwa-offline')).toHaveCount(0);
    await expect(page.getByTestId('credits')).toBeVisible({ timeout: 30_000 });
  });
});

test('preview: wheel zoom around the pointer, drag pan at that zoom, back to fit', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  const ws = new Workspace(page);
  await finishedSample(page, ws);
  await page.getByTestId('ready-preview').click();
  const after = page.getByTestId('img-after');
  await expect.poll(() => after.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  const stage = page.getByTestId('stage');
  const fit = Number(await stage.getAttribute('data-scale'));
  const box = (await stage.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -100);
  await expect.poll(async () => Number(await stage.getAttribute('data-scale'))).toBeGreaterThan(fit * 1.5);
  await expect(page.getByTestId('zoom-level')).toBeVisible();
  await expect(page.getByTestId('navigator')).toBeVisible();
  // Drag pans at this zoom (not only at 1:1).
  const left = await after.evaluate((el) => (el as HTMLElement).style.left);
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.3 + 80, box.y + box.height * 0.3, { steps: 5 });
  await page.mouse.up();
  expect(await after.evaluate((el) => (el as HTMLElement).style.left)).not.toBe(left);
  await ws.screenshot('first-impression-preview-zoomed');
  // An opaque photo sits on a neutral ground (no checkerboard).
  await expect(stage).toHaveClass(/opaque/);
  await page.getByTestId('zoom-fit').click();
  await expect(page.getByTestId('navigator')).toHaveCount(0);
});
