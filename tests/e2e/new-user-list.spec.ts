// Issue 47 point 5, what a new user tripped on: a phone's upload area said "Drag and drop"; holding the
// picture in the preview did nothing (only the hold button, on touch screens, showed the original);
// Japanese pricing showed dollars and "4x" beside "4倍".
import { expect, test } from '@playwright/test';
import { Workspace } from './pages/workspace.js';

test.describe('a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

  test('the upload area says to tap, in every language', async ({ page }) => {
    const ws = new Workspace(page);
    for (const [prefix, text] of [
      ['', 'Tap “Choose images” to pick photos from your device'],
      ['/de', 'Tippen Sie auf „Bilder auswählen“'],
      ['/fr', 'Touchez «\u00a0Choisir des images\u00a0»'],
      ['/ja', '「画像を選択」をタップ'],
    ] as const) {
      await ws.open(`${prefix}/batch-process/`);
      await expect(page.getByTestId('dropzone-title')).toContainText(text);
      await expect(page.getByTestId('dropzone-title')).not.toContainText(/drag|ziehen|glissez|ドラッグ/i);
      await expect(page.getByTestId('empty-uploaded')).not.toContainText(/drop|ablegen|déposez|ドロップ/i);
    }
    await ws.screenshot('new-user-01-touch-upload-375');
  });
});

test('a desk: the upload area still says drag and drop', async ({ page }) => {
  const ws = new Workspace(page);
  await ws.open();
  await expect(page.getByTestId('dropzone-title')).toHaveText('Drag and drop images here');
});

test('pressing and holding the picture shows Before, and the badge says so; the hold button by keyboard too', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  await page.setViewportSize({ width: 1366, height: 900 });
  const ws = new Workspace(page);
  await ws.open();
  await ws.chooseFeature('colorize');
  await ws.processFirstSample();
  await ws.tab('processed').click();
  await expect(ws.card('finished')).toHaveCount(1, { timeout: 30_000 });
  await ws.card('finished').getByTestId('preview').click();
  await page.getByTestId('mode-compare').click();
  const after = page.getByTestId('img-after');
  await expect.poll(() => after.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await expect
    .poll(() => page.getByTestId('img-before').evaluate((i) => (i as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
  const hidden = () => after.evaluate((i) => getComputedStyle(i).visibility === 'hidden');

  // Press on the picture, away from the divider.
  const box = (await page.getByTestId('stage').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
  await page.mouse.down();
  await expect.poll(hidden).toBe(true);
  await expect(page.getByTestId('stage-badge')).toHaveText('Before');
  await ws.screenshot('new-user-02-hold-picture-1366');
  await page.mouse.up();
  await expect.poll(hidden).toBe(false);
  await expect(page.getByTestId('stage-badge')).toHaveCount(0);

  // The hold button, held with the keyboard.
  const hold = page.getByTestId('hold-original');
  await hold.focus();
  await page.keyboard.down('Space');
  await expect(hold).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(hidden).toBe(true);
  await expect(page.getByTestId('stage-badge')).toHaveText('Before');
  await page.keyboard.up('Space');
  await expect(hold).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(hidden).toBe(false);

  // Side by side: the result's pane says Before while held.
  await page.getByTestId('mode-side').click();
  await expect(page.getByTestId('stage-badge')).toHaveText('After');
  const pane = (await page.getByTestId('stage').boundingBox())!;
  await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
  await page.mouse.down();
  await expect(page.getByTestId('stage-badge')).toHaveText('Before');
  await page.mouse.up();
  await expect(page.getByTestId('stage-badge')).toHaveText('After');
});

test('Japanese pricing is in yen and says 倍, never 4x; a picked currency is kept in every language', async ({
  page,
}) => {
  await page.goto('/ja/pricing/');
  await expect(page.getByTestId('price-basic')).toContainText('￥1,500');
  await expect(page.getByTestId('price-pro')).toContainText('￥3,000');
  await expect(page.locator('main')).not.toContainText(/\dx\b/);
  await expect(page.getByTestId('largest-output-pro')).toContainText('4倍');
  await page.screenshot({ path: 'tests/e2e/screenshots/new-user-03-ja-pricing-1366.png', fullPage: true });
  await page.getByTestId('currency-USD').click();
  await expect(page.getByTestId('price-basic')).toContainText('$9.90');
  await page.reload();
  await expect(page.getByTestId('price-basic')).toContainText('$9.90');
  await page.goto('/de/pricing/');
  await expect(page.getByTestId('price-basic')).toContainText('9,90 $');
  await expect(page.getByTestId('currency-USD')).toHaveAttribute('aria-checked', 'true');
});

test('pricing and the terms say that changing plans keeps the unused paid credits', async ({ page }) => {
  await page.goto('/pricing/');
  await expect(page.getByTestId('credits-replace')).toContainText(
    'Changing from one paid plan to the other (Basic to Pro, or back) keeps the plan credits you have not used yet',
  );
  await page.goto('/term-of-use/');
  await expect(page.locator('main')).toContainText('keeps the plan credits you have not used');
});
