// Language switch to ja and de (no untranslated key on screen) and the workspace at 375 px.
import { expect, test, type Page } from '@playwright/test';
import { Workspace } from './pages/workspace.js';

/** Raw i18n keys look like "status.ready" or "workspace:title"; none may reach the screen. */
async function visibleKeys(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return [...text.matchAll(/\b(?:common|workspace|errors|site|upload|pwa):[\w.]+|\b[a-z]+(?:\.[a-z][A-Za-z0-9_]*)+\b/g)]
    .map((m) => m[0])
    .filter((k) => !/^\d/.test(k));
}

test('switch to ja and de: texts translated, links prefixed, currency follows the language', async ({ page }) => {
  const ws = new Workspace(page);
  await ws.open('/batch-process/');
  await page.locator('.lang-switch summary').click();
  await page.getByTestId('lang-ja').click();
  await expect(page).toHaveURL(/\/ja\/batch-process\/$/);
  await expect(ws.tab('uploaded')).toContainText('アップロード済み');
  await expect(page.getByTestId('start')).toContainText('処理を開始');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  expect(await visibleKeys(page)).toEqual([]);
  await expect(page.getByRole('link', { name: '料金' }).first()).toHaveAttribute(
    'href',
    '/ja/pricing/?source=header&medium=nav_link',
  ); // pricing links carry source and medium (spec §2)
  await ws.screenshot('i18n-01-ja');

  await page.goto('/de/batch-process/');
  await expect(ws.tab('processed')).toContainText('Fertig');
  await page.getByTestId('tab-workflow').click();
  expect(await visibleKeys(page)).toEqual([]);
  await ws.screenshot('i18n-02-de');

  await page.goto('/de/pricing/');
  await expect(page.getByTestId('price-basic')).toContainText('€');
  await page.goto('/ja/pricing/');
  await expect(page.getByTestId('price-basic')).toContainText(/[¥￥]1,500/); // yen in Japanese (issue 47)
  await page.goto('/fr/pricing/');
  await expect(page.getByTestId('price-pro')).toContainText('€');
  expect(await visibleKeys(page)).toEqual([]);
});

test.describe('375 px', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true });
  test('the workspace fits the width and the core flow is reachable', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
    const ws = new Workspace(page);
    await ws.open('/batch-process/');
    await ws.chooseFeature('compress');
    await ws.upload('coffee.png');
    await expect(ws.card('ready')).toHaveCount(1, { timeout: 60_000 });
    await ws.card('ready').locator('input[type=checkbox]').check();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await ws.screenshot('mobile-01-ready');
    await ws.startButton().click();
    await expect(ws.tab('processing')).toHaveAttribute('aria-selected', 'true');
    await ws.screenshot('mobile-02-processing');
    await ws.tab('processed').click();
    await expect(ws.card('finished')).toHaveCount(1, { timeout: 90_000 });
    await ws.card('finished').getByTestId('preview').click();
    // Touch screen: the hold-to-compare view shows the result, the original while held.
    const hold = page.getByTestId('hold-to-compare');
    await expect(hold).toBeVisible({ timeout: 15_000 });
    await expect(hold).toHaveAttribute('data-showing', 'result');
    await ws.screenshot('mobile-03-preview');
    await page.getByTestId('mode-side').click();
    await expect(page.getByTestId('img-after')).toBeVisible({ timeout: 15_000 });
  });
});
