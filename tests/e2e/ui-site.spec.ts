// Every site link resolves to a real page; a feature page opens the workspace as a popup with its
// feature preselected; the matting result opens in the background editor through the imgInfo hand-off.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { Workspace } from './pages/workspace.js';

const LINKS = [
  '/',
  '/pricing/',
  '/posts/',
  '/login/',
  '/register/',
  '/my-account/',
  '/my-account/workflow/',
  '/image-enhancer/',
  '/image-enlarger/',
  '/denoise-ai/',
  '/sharpen-ai/',
  '/download-win/',
  '/remove-background/',
  '/upload/',
  '/image-editor/',
  '/single-process/',
  '/batch-process/',
  '/colorize-photo/',
  '/toongineer-cartoonizer/',
  '/photo-to-sketch/',
  '/photo-retoucher/',
  '/image-compressor/',
  '/image-cropper/',
  '/image-resizer/',
  '/image-rotator/',
  '/flip-image/',
  '/old-photo-restoration/',
  '/contact/',
  '/about-us/',
  '/api-docs/',
  '/privacy-policy/',
  '/term-of-use/',
  '/user-agreement/',
  '/author/',
  '/sitemap/',
];

/**
 * Under /fr, one link of each kind of page (home, storefront, blog, account, feature, tool, workspace,
 * editor, content, sitemap): the language routes are made from the same list for every prefix
 * (src/app/App.tsx), so these show the prefix works for each kind; every link is opened in English.
 */
const FR_LINKS = [
  '/',
  '/pricing/',
  '/posts/',
  '/login/',
  '/my-account/workflow/',
  '/image-enlarger/',
  '/upload/',
  '/batch-process/',
  '/image-editor/',
  '/image-resizer/',
  '/old-photo-restoration/',
  '/api-docs/',
  '/author/',
  '/sitemap/',
];

test('every site link of spec §2 is a real page in en, and each kind of page in fr', async ({ page }) => {
  const visits = [...LINKS, ...FR_LINKS.map((link) => `/fr${link}`)];
  // The server answers each with the app's document ...
  for (const link of visits) {
    const res = await page.request.get(link);
    expect(res.status(), link).toBe(200);
    expect(res.headers()['content-type'], link).toContain('text/html');
  }
  // ... and the app shows a real page for each. One document, the app's own router between pages (a full
  // load per link cost ~0.6 s of Chromium each): by way of the sitemap page, whose title is its own, so
  // each check sees the new page's heading and never the one before it.
  const h1 = page.locator('h1').first();
  const open = (link: string) =>
    page.evaluate((to) => {
      history.pushState(null, '', to);
      dispatchEvent(new PopStateEvent('popstate'));
    }, link);
  const sitemapTitle: Record<string, string> = {};
  for (const prefix of ['/fr', '']) {
    await page.goto(`${prefix}/sitemap/`);
    await expect(h1).not.toHaveText(/Page not found|Page introuvable/);
    sitemapTitle[prefix] = (await h1.textContent())!;
  }
  for (const link of visits) {
    const prefix = link.startsWith('/fr/') ? '/fr' : '';
    if (link === `${prefix}/sitemap/`) continue;
    await open(`${prefix}/sitemap/`);
    await expect(h1, link).toHaveText(sitemapTitle[prefix]!);
    await open(link);
    await expect(h1, link).toBeVisible();
    await expect(h1, link).not.toHaveText(sitemapTitle[prefix]!);
    await expect(h1, link).not.toHaveText(/Page not found|Page introuvable/);
  }
  await page.goto('/no-such-page/');
  await expect(page.locator('h1')).toHaveText('Page not found');
});

test('feature page opens the workspace popup with its feature preselected', async ({ page }) => {
  await page.goto('/image-compressor/');
  await page.getByTestId('open-workspace').click();
  const dialog = page.getByTestId('workspace-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('feature-compress')).toHaveAttribute('aria-checked', 'true');
  await new Workspace(page).screenshot('site-01-feature-popup');
  await page.goto('/old-photo-restoration/');
  await page.getByTestId('open-workspace').click();
  await expect(page.getByTestId('preset-ai_old_photo_repire_colorize')).toHaveAttribute('aria-pressed', 'true');
});

test('upload page: compare dialog shows original, Basic and Pro and offers upgrade or decline', async ({ page }) => {
  await page.goto('/upload/');
  await page.getByTestId('open-compare').click();
  const dialog = page.getByTestId('compare-dialog');
  await expect(dialog.locator('img')).toHaveCount(3);
  await expect(dialog.locator('figcaption')).toHaveText(['Original', 'Basic (2x)', 'Pro (4x)']);
  await expect
    .poll(() =>
      dialog
        .locator('img')
        .nth(2)
        .evaluate((i) => (i as HTMLImageElement).naturalWidth),
    )
    .toBeGreaterThan(0);
  await new Workspace(page).screenshot('site-03-compare');
  await page.getByTestId('compare-decline').click();
  await expect(dialog).toHaveCount(0);
  await page.getByTestId('open-compare').click();
  await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
  await expect(page).toHaveURL(/\/pricing\/\?source=compare&medium=upgrade_pro$/);
});

test('background removal → edit → editor shows the cut-out and downloads a PNG', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  const ws = new Workspace(page);
  await ws.open();
  await ws.chooseFeature('matting');
  await ws.upload('chelsea.png');
  await expect(ws.card('ready')).toHaveCount(1, { timeout: 60_000 });
  await ws.card('ready').locator('input[type=checkbox]').check();
  await ws.startButton().click();
  await expect(ws.tab('processing')).toHaveAttribute('aria-selected', 'true');
  await ws.tab('processed').click();
  const done = ws.card('finished');
  await expect(done).toHaveCount(1, { timeout: 110_000 });
  await done.getByTestId('edit').click();
  await expect(page).toHaveURL(/\/image-editor\/$/);
  const info = await page.evaluate(() => JSON.parse(localStorage.getItem('imgInfo') ?? '{}'));
  expect(info).toMatchObject({
    filename: 'chelsea.png',
    targetName: 'matting-chelsea.png',
    isProcessed: true,
    sizeNum: 'large',
    width: 451,
    height: 300,
  });
  await expect(page.locator('[data-testid="editor-stage"] canvas')).toBeVisible({ timeout: 20_000 });
  await page.getByRole('radio', { name: '#ffffff' }).click();
  await ws.screenshot('site-02-editor');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('editor-download').click()]);
  expect(download.suggestedFilename()).toBe('matting-chelsea.png');
  const png = fs.readFileSync(await download.path());
  expect(png.subarray(1, 4).toString()).toBe('PNG');
});
