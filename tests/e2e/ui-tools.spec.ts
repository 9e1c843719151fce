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
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download image' }).click()]);
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
  const idx = (299) * 3;
  const t = [...turned.data.subarray(idx, idx + 3)];
  for (let c = 0; c < 3; c++) expect(Math.abs(o[c] - t[c])).toBeLessThanOrEqual(2);
  await page.screenshot({ path: 'tests/e2e/screenshots/tools-rotate.png', fullPage: true });
});

test('resize to width 200 in the worker gives 200×133', async ({ page }) => {
  await openTool(page, '/image-resizer/');
  const out = await applyAndDownload(page, () => page.locator('input[type=number]').fill('200'));
  expect([out.width, out.height]).toEqual([200, 133]);
});

test('crop 1:1 in the worker gives 300×300', async ({ page }) => {
  await openTool(page, '/image-cropper/');
  // 1:1 is the first aspect; choose 16:9 and back so the download is the result of a click.
  await page.getByRole('radio', { name: '16:9' }).click();
  await expect(page.locator('.tool-canvas img')).toHaveAttribute('height', '254');
  const out = await applyAndDownload(page, () => page.getByRole('radio', { name: '1:1' }).click());
  expect([out.width, out.height]).toEqual([300, 300]);
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
