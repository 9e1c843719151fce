// Failed cards offer only what can work.
// (a) A reload while a large file is still being prepared and its stored pick is gone (evicted by the
//     browser; a pick that is kept is prepared again: resume-after-reload.spec.ts): its card says the
//     upload was interrupted and asks for the file again (never a "Ready" card without a thumbnail whose
//     start fails); the file chosen again takes its place and ends ready, with its thumbnail.
// (b) A damaged file's card offers no "Process on this device" (nothing of it is stored to process).
// (c) A failed upload whose image this device holds offers it, its download note one block under the button
//     (in the two-column grid at 1366 px it wrapped half beside the button, half under it).
import { expect, test } from '@playwright/test';
import { deviceOnlyWork, ENLARGE_FIRST_USE } from './pages/onDevice.js';
import { truncatedJpeg } from './pages/uploadFiles.js';
import { fixture, Workspace } from './pages/workspace.js';

// the on-device card's work comes from the service worker's cache (the browser project blocks it by default: playwright.config.ts)
test.use({ serviceWorkers: 'allow' });

test('a reload while a large file is prepared, its stored pick evicted: interrupted, choose the file again, then ready with a thumbnail', async ({
  page,
}) => {
  const ws = new Workspace(page);
  await ws.open();
  await ws.upload('elephants-5640x3172.jpg');
  const cid = await ws.reloadWhilePreparing({ evictOriginal: true });
  const card = page.locator(`[data-testid="work-card"][data-cid="${cid}"]`);
  await expect(card).toHaveAttribute('data-status', 'uploadFailed', { timeout: 30_000 });
  await expect(card.getByTestId('upload-reason')).toContainText('interrupted');
  await expect(card.locator('input[type=checkbox]')).toBeDisabled();
  await expect(ws.card('ready')).toHaveCount(0);
  await card.getByTestId('pick-again-input').setInputFiles(fixture('rocket.jpg'));
  await expect(card).toHaveCount(0);
  const ready = ws.card('ready');
  await expect(ready).toHaveCount(1, { timeout: 60_000 });
  await expect(ready.locator('.work-thumb img')).toHaveCount(1);
  await expect(ready.locator('.work-check')).toBeChecked();
});

test('a damaged file on an on-device feature: its card offers no "Process on this device"', async ({ page }) => {
  const ws = new Workspace(page);
  await ws.openFeaturePage('/image-enlarger/');
  await ws.upload(truncatedJpeg());
  const card = ws.card('uploadFailed');
  await expect(card.getByTestId('upload-reason')).toContainText('damaged', { timeout: 60_000 });
  await expect(card.getByTestId('process-on-device')).toHaveCount(0);
});

test('a failed upload held on this device offers it, its download note under the button inside the card', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const { card } = await deviceOnlyWork(page, context, '/image-enlarger/', ENLARGE_FIRST_USE);
  const button = card.getByTestId('process-on-device');
  const note = card.getByTestId('on-device').locator('small');
  await expect(button).toBeVisible();
  const [c, b, n] = [await card.boundingBox(), await button.boundingBox(), await note.boundingBox()];
  expect(n!.x + n!.width).toBeLessThanOrEqual(c!.x + c!.width);
  expect(n!.x).toBeGreaterThanOrEqual(c!.x);
  // under the button, never wrapped across it
  expect(n!.y).toBeGreaterThanOrEqual(b!.y + b!.height);
});
