// Results, upsells and the preview, with screenshots of those screens (1366 px desktop, 375 px touch)
// saved under bench/results/ui-screens/: Download selected one after another, result thumbnails and the
// size compress saved, no upsell to Pro, the zoomed preview on the picture's detail, the touch cut-out
// preview on a checkerboard, an unknown ?medium= said.
import { expect, test, type Page } from '@playwright/test';
import { admin, AuthPage, uniqueEmail } from './pages/account.js';
import { finishedSample, Preview } from './pages/preview.js';
import { skyWithDetail, truncatedJpeg } from './pages/uploadFiles.js';
import { Workspace } from './pages/workspace.js';

const SHOTS = 'bench/results/ui-screens';
/** A screenshot once CSS animations (dialogs sliding in, fades) have run. */
async function shot(page: Page, name: string, fullPage = false) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
}

test.beforeEach(async ({ context, baseURL }) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
});

test('Basic compresses three, each card shows its result and the size saved, Download selected saves them one after another; Pro sees no upsell', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const email = uniqueEmail('results-dl');
  await new AuthPage(page).register(email);
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  await admin(email, 'grant', email, 'basic');
  const ws = new Workspace(page);
  await ws.open();
  await expect(page.getByTestId('credits')).toContainText('Basic', { timeout: 30_000 });
  // Basic is told what Pro adds, not what Basic already has (8x)
  await expect(page.getByTestId('banner-workspace-pro')).toContainText('34 MP');
  await expect(page.getByTestId('banner-workspace-pro')).not.toContainText('8x');
  await ws.chooseFeature('compress');
  await ws.upload('chelsea.png', 'coffee.png', 'astronaut.png');
  await expect(ws.card('ready')).toHaveCount(3, { timeout: 90_000 });
  await expect(page.getByTestId('selected-counter')).toHaveText('3/5');
  await shot(page, '03-uploaded-selected-1366');
  await ws.startButton().click();
  await ws.tab('processed').click();
  await expect(ws.card('finished')).toHaveCount(3, { timeout: 180_000 });
  // each card: the result as thumbnail, and the size compress saved
  for (const card of await ws.card('finished').all()) {
    await expect(card.locator('.work-thumb img')).toHaveAttribute('src', /^data:image\/jpeg/, { timeout: 30_000 });
    await expect(card.getByTestId('size-saved')).toContainText(/File size: .+ → .+/);
  }
  const dl = page.getByTestId('download-selected');
  await expect(dl).toBeDisabled();
  await page.getByTestId('select-all').check();
  await expect(dl).toHaveText('Download selected (3)');
  await shot(page, '04-processed-download-selected-1366');
  const names: string[] = [];
  page.on('download', (d) => names.push(d.suggestedFilename()));
  await dl.click();
  await expect.poll(() => names.length, { timeout: 60_000 }).toBe(3);
  expect(new Set(names).size).toBe(3);
  await expect(dl).toHaveText('Download selected (3)');

  await page.setViewportSize({ width: 375, height: 812 });
  await shot(page, '04-processed-download-selected-375', true);
  await page.setViewportSize({ width: 1366, height: 900 });

  // Pro: no "Go Pro" banner, no "Larger results with Pro" in the preview, no compare offer on /upload/
  await admin(email, 'grant', email, 'pro');
  await ws.open();
  await expect(page.getByTestId('credits')).toContainText('Pro', { timeout: 30_000 });
  await expect(page.getByTestId('banner-workspace-pro')).toHaveCount(0);
  await ws.tab('processed').click();
  await ws.card('finished').first().getByTestId('preview').click();
  await expect(page.getByTestId('preview-dialog')).toBeVisible();
  await new Preview(page).resultLoaded();
  await new Preview(page).settled();
  await expect(page.getByTestId('preview-upsell')).toHaveCount(0);
  await shot(page, '05-pro-preview-no-upsell-1366');
  await page.keyboard.press('Escape');
  await ws.open('/upload/');
  await expect(page.getByTestId('open-compare')).toHaveCount(0);
  await shot(page, '06-pro-workspace-no-banner-1366');
});

test('an enlarged sky photo opens at 1:1 on its detail (lower left), 1:1 and Fit one tap away', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const ws = new Workspace(page);
  await ws.open();
  await ws.chooseFeature('enlarge');
  await ws.upload(await skyWithDetail());
  const card = ws.card('ready');
  await expect(card).toHaveCount(1, { timeout: 60_000 });
  await card.locator('input[type=checkbox]').check();
  await ws.startButton().click();
  await ws.tab('processed').click();
  await expect(ws.card('finished')).toHaveCount(1, { timeout: 180_000 });
  await ws.card('finished').getByTestId('preview').click();
  const pv = new Preview(page);
  await pv.resultLoaded();
  await pv.settled();
  // the result (1280×800) at 1:1 is larger than its pane: the view sits on the lower left, not the centre
  const pane = (await page.getByTestId('stage').boundingBox())!;
  await expect
    .poll(async () => {
      const img = (await page.getByTestId('img-after').boundingBox())!;
      // at the left edge and (within the stage's inner margin) at the bottom: far from the centred view
      const left = Math.abs(img.x - pane.x) <= 16;
      const bottom = Math.abs(pane.y + pane.height - (img.y + img.height)) <= 16;
      const overflowY = img.height - pane.height;
      return { left, bottom, zoomedIn: overflowY > 100 };
    })
    .toEqual({ left: true, bottom: true, zoomedIn: true });
  await shot(page, '07-enlarge-preview-detail-1366');
  await page.getByTestId('zoom-fit').click();
  await expect(page.getByTestId('zoom-fit')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('zoom-1').click();
  await expect(page.getByTestId('zoom-1')).toHaveAttribute('aria-pressed', 'true');
});

test('an unknown ?medium= is said, not silently read as Denoise', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const ws = new Workspace(page);
  await ws.open('/batch-process/?medium=ai_super_duper');
  await expect(page.getByTestId('toast')).toContainText('ai_super_duper');
  await shot(page, '08-unknown-medium-1366');
});

test('pricing page: the limits and what a plan does to the free credits (1366)', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/pricing/');
  await expect(page.getByTestId('limit-pro')).toContainText('34 MP');
  await expect(page.getByTestId('credits-replace')).toContainText('replace the free ones');
  await shot(page, '09-pricing-1366', true);
});

test.describe('375 px touch', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('the cut-out preview on a phone shows a checkerboard behind the result', async ({ page }) => {
    const ws = new Workspace(page);
    await ws.open();
    await ws.chooseFeature('matting');
    await ws.processFirstSample();
    await expect(page.getByTestId('ready-toast')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('ready-preview').click();
    const box = page.getByTestId('hold-box');
    await expect(box).toHaveClass(/hold-checker/);
    expect(await box.evaluate((el) => getComputedStyle(el).backgroundImage)).toContain('conic-gradient');
    await expect(page.getByTestId('htc-after')).toBeVisible({ timeout: 30_000 });
    await expect
      .poll(() =>
        page
          .getByTestId('htc-after')
          .evaluate((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
      )
      .toBe(true);
    await shot(page, '10-cutout-preview-checker-375');
  });

  test('a cut-off JPEG on a phone, empty states and Continue', async ({ page }) => {
    const ws = new Workspace(page);
    await ws.open();
    await page.getByTestId('continue').click();
    await expect(ws.messageDialog()).toContainText('Upload an image first');
    await shot(page, '11-continue-nothing-375');
    await ws.messageDialog().getByRole('button').last().click();
    await page.getByTestId('tab-feature').click();
    await page.getByTestId('feature-denoise').click();
    await ws.upload(truncatedJpeg());
    await expect(ws.messageDialog()).toContainText('cut off', { timeout: 60_000 });
    await shot(page, '12-cutoff-dialog-375');
    await ws.messageDialog().getByRole('button').last().click();
    await expect(ws.card('uploadFailed').getByTestId('upload-reason')).toBeVisible();
    await ws.card('uploadFailed').scrollIntoViewIfNeeded();
    await shot(page, '13-cutoff-card-375');
    await ws.tab('processing').click();
    await expect(page.getByTestId('empty-processing')).toContainText('Upload an image');
    await shot(page, '14-empty-processing-375');
  });

  test('pricing page and a sample preview at 375 (finished sample, the phone preview)', async ({ page }) => {
    await page.goto('/pricing/');
    await expect(page.getByTestId('credits-replace')).toBeVisible({ timeout: 30_000 });
    await shot(page, '09-pricing-375', true);
    const ws = new Workspace(page);
    await finishedSample(page, ws);
    await page.getByTestId('ready-preview').click();
    await expect(page.getByTestId('preview-dialog')).toBeVisible();
    await expect(page.getByTestId('preview-upsell')).toBeVisible();
    await shot(page, '15-guest-preview-375');
  });
  test('375 touch: a sample enlarge result opens zoomed on its detail; the Processed tab with Download selected; an unknown medium; Pro without upsells', async ({
    page,
  }) => {
    const ws = new Workspace(page);
    await ws.open('/batch-process/?medium=nope');
    await expect(page.getByTestId('toast')).toContainText('nope');
    await shot(page, '08-unknown-medium-375');
    await ws.chooseFeature('enlarge');
    await ws.processFirstSample();
    await expect(page.getByTestId('ready-toast')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('ready-preview').click();
    const pv = new Preview(page);
    await pv.resultLoaded();
    await pv.settled();
    await shot(page, '07-enlarge-preview-375');
    await page.keyboard.press('Escape');
    await ws.tab('processed').click();
    await ws.card('finished').getByTestId('result-check').check();
    await expect(page.getByTestId('download-selected')).toHaveText('Download selected (1)');
    await shot(page, '04-processed-download-selected-touch-375');
    const email = uniqueEmail('results-pro375');
    await new AuthPage(page).register(email);
    await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
    await admin(email, 'grant', email, 'pro');
    await ws.open();
    await expect(page.getByTestId('credits')).toContainText('Pro', { timeout: 30_000 });
    await expect(page.getByTestId('banner-workspace-pro')).toHaveCount(0);
    await shot(page, '06-pro-workspace-no-banner-375');
  });
});
