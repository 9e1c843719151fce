// Samples: picked from the Sample tab (GET /api/v2/sample/info), processed by simulation (4 s) with
// their preset result images; the workflow tab clears their selection; deleting asks for confirmation.
import { expect, test } from '@playwright/test';
import { Workspace } from './pages/workspace.js';

test('sample work: simulated processing, preview from the preset images, workflow refuses samples', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  const ws = new Workspace(page);
  await ws.open();
  await ws.chooseFeature('denoise');
  await page.getByTestId('upload-tab-sample').click();
  const samples = page.getByTestId('sample');
  await expect(samples.first()).toBeVisible();
  await ws.screenshot('sample-01-grid');
  await samples.first().click();
  const card = ws.card('ready');
  await expect(card).toHaveCount(1);
  await card.locator('input[type=checkbox]').check();

  // Choosing the workflow tab clears the sample selection (spec §4).
  await page.getByTestId('tab-workflow').click();
  await expect(card.locator('input[type=checkbox]')).not.toBeChecked();
  await page.getByTestId('tab-feature').click();
  await card.locator('input[type=checkbox]').check();
  await ws.startButton().click();
  await expect(ws.tab('processing')).toHaveAttribute('aria-selected', 'true');
  await expect(ws.card('processing')).toHaveCount(1);
  await ws.tab('processed').click();
  await expect(ws.card('finished')).toHaveCount(1, { timeout: 20_000 });
  await ws.card('finished').getByTestId('preview').click();
  await expect(page.getByTestId('mode-side')).toHaveAttribute('aria-selected', 'true'); // denoise → side by side
  await expect(page.getByTestId('img-after')).toHaveAttribute('src', /\/samples\/denoise\/.+-denoise\.jpg$/);
  await expect(page.getByTestId('img-before')).toHaveAttribute('src', /\/samples\/denoise\/[a-z]+\.jpg$/);
  await expect
    .poll(() => page.getByTestId('img-after').evaluate((i) => (i as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
  await ws.screenshot('sample-02-preview');
  await page.getByTestId('modal-close').click();

  // Delete asks first; cancel keeps the work, confirm removes it.
  await ws.card('finished').getByTestId('delete').click();
  await expect(page.getByTestId('confirm-dialog')).toBeVisible();
  await page.getByTestId('confirm-cancel').click();
  await expect(ws.card('finished')).toHaveCount(1);
  await ws.card('finished').getByTestId('delete').click();
  await page.getByTestId('confirm-ok').click();
  await expect(ws.card('finished')).toHaveCount(0);
  await expect(page.getByTestId('empty-processed')).toBeVisible();
});
