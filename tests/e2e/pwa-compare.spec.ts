// Hold-to-compare on a touch device: pressing and holding shows the original, releasing the result.
import sharp from 'sharp';
import { expect, test, type Page } from '@playwright/test';
import { HARNESS_PATH } from '../support/testPages.js';

test.use({ hasTouch: true, isMobile: true, viewport: { width: 412, height: 800 } });

/** Colour at the centre of the compare area, read from a real screenshot. */
async function centreColour(page: Page): Promise<[number, number, number]> {
  const box = page.getByTestId('hold-to-compare').locator('img').first().locator('..');
  const png = await box.screenshot();
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const i = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
  return [data[i], data[i + 1], data[i + 2]];
}

test('touch and hold shows the original; release shows the result', async ({ page }) => {
  await page.goto(`${HARNESS_PATH}?compare=1`);
  const area = page.getByTestId('hold-to-compare');
  await expect(area).toHaveAttribute('data-showing', 'result');
  // result = red, original = grey (drawn by the harness)
  expect(await centreColour(page)).toEqual([255, 0, 0]);

  const button = area.getByRole('button', { name: 'Hold to compare' });
  const b = (await button.boundingBox())!;
  const cdp = await page.context().newCDPSession(page);
  const point = [{ x: b.x + b.width / 2, y: b.y + b.height / 2 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point });
  await expect(area).toHaveAttribute('data-showing', 'original');
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  expect(await centreColour(page)).toEqual([128, 128, 128]);

  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect(area).toHaveAttribute('data-showing', 'result');
  expect(await centreColour(page)).toEqual([255, 0, 0]);

  // Holding the picture itself works the same way.
  const img = (await area.locator('img').first().locator('..').boundingBox())!;
  await cdp.send('Input.dispatchTouchEvent', {
    type: 'touchStart',
    touchPoints: [{ x: img.x + img.width / 2, y: img.y + img.height / 2 }],
  });
  await expect(area).toHaveAttribute('data-showing', 'original');
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect(area).toHaveAttribute('data-showing', 'result');
});
