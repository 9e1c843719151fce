// A guest's first use end to end on the real server: upload → auto-select → auto-start → processed →
// preview opens by itself → download gives the processed file.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { Workspace } from './pages/workspace.js';

test('guest first use: one image processes by itself, the preview opens and the download is the result', async ({
  page,
}) => {
  const ws = new Workspace(page);
  await ws.open();
  await ws.screenshot('guest-01-empty');
  await expect(page.getByTestId('empty-uploaded')).toBeVisible();
  await expect(page.getByTestId('selected-counter')).toHaveText('0/1');
  await expect(ws.startButton()).toBeDisabled();

  await ws.chooseFeature('compress');
  await ws.upload('chelsea.png');
  // Auto-selected after 2 s and started; the tab switches to Processing and then Processed.
  await expect(ws.tab('processing')).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  await ws.screenshot('guest-02-processing');
  const preview = page.getByTestId('preview-dialog');
  await expect(preview).toBeVisible({ timeout: 90_000 });
  await expect(ws.tab('processed')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('img-after')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('preview-output-size')).toHaveText('451×300');
  await ws.screenshot('guest-03-preview');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('preview-download').click()]);
  const file = await download.path();
  const bytes = fs.readFileSync(file);
  // Compress answers a JPEG (or PNG) of the processed image, not the original PNG bytes.
  const original = fs.readFileSync(new URL('../fixtures/chelsea.png', import.meta.url));
  expect(bytes.length).toBeGreaterThan(1000);
  expect(Buffer.compare(bytes, original)).not.toBe(0);
  await page.getByTestId('modal-close').click();
  await expect(ws.card('finished')).toHaveCount(1);
  await ws.screenshot('guest-04-processed');

  // Works survive a reload (local persistence), and the 1:1 view pans with the thumbnail window.
  await page.reload();
  await ws.tab('processed').click();
  await expect(ws.card('finished')).toHaveCount(1);
  // A phone-sized window so the 451×300 result is wider than the preview stage at 1:1.
  await page.setViewportSize({ width: 400, height: 640 });
  await ws.card('finished').getByTestId('preview').click();
  await expect(page.getByTestId('img-after')).toBeVisible({ timeout: 15_000 });
  await page.getByTestId('zoom-1').click();
  const mover = page.getByTestId('mover');
  await expect(page.getByTestId('navigator')).toHaveCSS('width', '304px');
  const place = () =>
    page
      .getByTestId('img-after')
      .evaluate((el) => `${(el as HTMLElement).style.left},${(el as HTMLElement).style.top}`);
  const before = await place();
  const box = (await mover.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 40, { steps: 5 });
  await page.mouse.up();
  const after = await place();
  expect(before).not.toBe(after);
  await ws.screenshot('guest-05-pan');
});
