// Through the real workspace (the UI helper's screens): a guest drops the 16 MB JPEG; the work gets a
// server uid, and the server holds a resized file (≤ 2.8 MP). Main-thread blocking is measured by the
// bench (bench/client.ts), not asserted here.
import sharp from 'sharp';
import { expect, test } from '@playwright/test';
import { fixture } from './pages/pwaHarness.js';

test('guest drop in the workspace: resized upload', async ({ page }) => {
  await page.goto('/batch-process/');
  const input = page.getByTestId('file-input').first();
  await expect(input).toBeAttached();
  await input.setInputFiles(fixture('elephants-5640x3172.jpg'));
  const card = page.locator('[data-testid="work-card"][data-uid]:not([data-uid=""])').first();
  await expect(card).toBeAttached({ timeout: 90_000 });
  const uid = (await card.getAttribute('data-uid'))!;

  // The bytes the server keeps for this upload (the guest's cookies authorise the request).
  const res = await page.request.get(`/web_api/v1/download/src?uid=${encodeURIComponent(uid)}`);
  expect(res.status()).toBe(200);
  const meta = await sharp(await res.body()).metadata();
  expect(meta.width! * meta.height!).toBeLessThanOrEqual(2.8e6);
  expect(meta.width! / meta.height!).toBeCloseTo(5640 / 3172, 1);
});
