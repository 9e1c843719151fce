/** The simple tools run in the image worker: each one edits chelsea.png (451×300) and the download is checked with sharp. */
import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const FIXTURE = path.resolve('tests/fixtures/chelsea.png');

async function openTool(page: Page, route: string) {
  await page.goto(route);
  await page.locator('input[type=file]').setInputFiles(FIXTURE);
  // The first answer from the worker shows the opened image.
  await expect(page.locator('.tool-canvas img')).toBeVisible();
  await expect(page.locator('.tool-canvas')).toHaveAttribute('aria-busy', 'false');
}

/** Waits for a new result after `act`, then downloads it and checks it came from the worker. */
async function applyAndDownload(page: Page, act: () => Promise<void>) {
  const img = page.locator('.tool-canvas img');
  const before = await img.getAttribute('src');
  await act();
  await expect(img).not.toHaveAttribute('src', before ?? '');
  await expect(page.locator('.tool-canvas')).toHaveAttribute('aria-busy', 'false');
  await expect(img).toHaveAttribute('data-runtime', 'worker');
  // Nothing is drawn on the UI thread: the page has no canvas of its own.
  expect(await page.locator('canvas').count()).toBe(0);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download image' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('chelsea.png');
  const bytes = fs.readFileSync(await download.path());
  const meta = await sharp(bytes).metadata();
  expect(meta.format).toBe('png');
  return { bytes, width: meta.width, height: meta.height };
}

test('rotate 90° in the worker gives 300×451', async ({ page }) => {
  await openTool(page, '/image-rotator/');
  const out = await applyAndDownload(page, () => page.getByRole('button', { name: '↻ 90°' }).click());
  expect([out.width, out.height]).toEqual([300, 451]);
  // The original's top-left corner ends up top-right after a clockwise turn.
  const orig = await sharp(FIXTURE).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const turned = await sharp(out.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const o = [...orig.data.subarray(0, 3)];
  const idx = 299 * 3;
  const t = [...turned.data.subarray(idx, idx + 3)];
  for (let c = 0; c < 3; c++) expect(Math.abs(o[c] - t[c])).toBeLessThanOrEqual(2);
  await page.screenshot({ path: 'tests/e2e/screenshots/tools-rotate.png', fullPage: true });
});

test('resize to width 200 in the worker gives 200×133', async ({ page }) => {
  await openTool(page, '/image-resizer/');
  const out = await applyAndDownload(page, () => page.locator('input[type=number]').fill('200'));
  expect([out.width, out.height]).toEqual([200, 133]);
});

/** The cropper's box as [x, y, w, h] in image pixels. */
async function cropBox(page: Page): Promise<number[]> {
  return ((await page.getByTestId('crop-box').getAttribute('data-box')) ?? '').split(',').map(Number);
}

/** Drags from the centre of `from` by (dx, dy) image pixels (the stage shows the image scaled). */
async function dragBy(page: Page, from: ReturnType<Page['locator']>, dx: number, dy: number) {
  const stage = (await page.getByTestId('crop-stage').boundingBox())!;
  const s = stage.width / 451;
  const b = (await from.boundingBox())!;
  const [x, y] = [b.x + b.width / 2, b.y + b.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + (dx * s) / 2, y + (dy * s) / 2, { steps: 3 });
  await page.mouse.move(x + dx * s, y + dy * s, { steps: 3 });
  await page.mouse.up();
}

test('crop box: a ratio preset, handles, drag and keys shape it; the worker cuts exactly that box', async ({
  page,
}) => {
  await page.goto('/image-cropper/');
  await page.locator('input[type=file]').setInputFiles(FIXTURE);
  await expect(page.getByTestId('crop-stage').locator('img')).toHaveAttribute('data-runtime', 'worker');
  // Free at first: the whole picture.
  expect(await cropBox(page)).toEqual([0, 0, 451, 300]);
  await page.getByRole('radio', { name: '1:1' }).click();
  expect(await cropBox(page)).toEqual([76, 0, 300, 300]);
  // The south-east handle, dragged up-left, shrinks the box and 1:1 holds; the north-west corner stays.
  await dragBy(page, page.locator('[data-handle=se]'), -100, -60);
  const [x1, y1, w1, h1] = await cropBox(page);
  expect([x1, y1]).toEqual([76, 0]);
  expect(w1).toBe(h1);
  expect(w1).toBeGreaterThan(180);
  expect(w1).toBeLessThan(220);
  // Dragging inside moves it, size kept, never out of the picture.
  await dragBy(page, page.getByTestId('crop-box'), 40, 30);
  const [x2, y2, w2, h2] = await cropBox(page);
  expect([w2, h2]).toEqual([w1, h1]);
  expect(Math.abs(x2 - (x1 + 40))).toBeLessThanOrEqual(2);
  expect(Math.abs(y2 - (y1 + 30))).toBeLessThanOrEqual(2);
  await dragBy(page, page.getByTestId('crop-box'), 1000, 1000);
  expect(await cropBox(page)).toEqual([451 - w2, 300 - h2, w2, h2]);
  // Keyboard: Shift+ArrowLeft nudges 10 px, Alt+ArrowLeft shrinks by 1 px (ratio held).
  await page.getByTestId('crop-box').focus();
  await page.keyboard.press('Shift+ArrowLeft');
  await page.keyboard.press('ArrowUp');
  expect(await cropBox(page)).toEqual([451 - w2 - 10, 300 - h2 - 1, w2, h2]);
  await page.keyboard.press('Alt+ArrowLeft');
  const [, , w3, h3] = await cropBox(page);
  expect([w3, h3]).toEqual([w2 - 1, h2 - 1]);
  // Free: the west handle changes the width only.
  await page.getByRole('radio', { name: 'Free' }).click();
  await dragBy(page, page.locator('[data-handle=w]'), -50, 0);
  const box = await cropBox(page);
  expect(box[3]).toBe(h3);
  expect(Math.abs(box[2] - (w3 + 50))).toBeLessThanOrEqual(2);
  await expect(page.getByTestId('crop-size')).toHaveText(`Crop: ${box[2]}×${box[3]} px`);
  await page.screenshot({ path: 'tests/e2e/screenshots/tools-crop-box.png', fullPage: true });
  // The download is exactly that box of the original.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('crop-download').click()]);
  expect(download.suggestedFilename()).toBe('chelsea.png');
  const bytes = fs.readFileSync(await download.path());
  const meta = await sharp(bytes).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(['png', box[2], box[3]]);
  const got = await sharp(bytes).removeAlpha().raw().toBuffer();
  const want = await sharp(FIXTURE)
    .extract({ left: box[0], top: box[1], width: box[2], height: box[3] })
    .removeAlpha()
    .raw()
    .toBuffer();
  expect(got.reduce((s, v, i) => s + Math.abs(v - want[i]!), 0) / got.length).toBeLessThan(1);
  // Nothing is drawn on the UI thread: the page has no canvas of its own.
  expect(await page.locator('canvas').count()).toBe(0);
});

test('flip horizontally in the worker mirrors the pixels', async ({ page }) => {
  await openTool(page, '/flip-image/');
  const out = await applyAndDownload(page, () => page.getByRole('button', { name: 'Flip horizontally' }).click());
  expect([out.width, out.height]).toEqual([451, 300]);
  const orig = await sharp(FIXTURE).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const flipped = await sharp(out.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const px = (buf: Buffer, x: number, y: number) => [...buf.subarray((y * 451 + x) * 3, (y * 451 + x) * 3 + 3)];
  // Corners: the download's top-left is the original's top-right, and its bottom-right the original's bottom-left.
  const pairs: [number[], number[]][] = [
    [px(flipped.data, 0, 0), px(orig.data, 450, 0)],
    [px(flipped.data, 450, 299), px(orig.data, 0, 299)],
  ];
  for (const [a, b] of pairs) for (let c = 0; c < 3; c++) expect(Math.abs(a[c] - b[c])).toBeLessThanOrEqual(2);
  // Whole image: matches sharp's own mirror, and differs from the unflipped original.
  const mirror = await sharp(FIXTURE).flop().removeAlpha().raw().toBuffer();
  const meanDiff = (a: Buffer, b: Buffer) => a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / a.length;
  expect(meanDiff(flipped.data, mirror)).toBeLessThan(1);
  expect(meanDiff(flipped.data, orig.data)).toBeGreaterThan(10);
});
