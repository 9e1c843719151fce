// Long German (and French/Japanese) words neither overflow their buttons nor
// run past the edge of a 375-px screen, on the workspace, pricing, home and account pages.
import { expect, test, type Page } from '@playwright/test';
import { AuthPage, uniqueEmail } from './pages/account.js';
import { layoutOverflows } from './pages/layoutProbe.js';
import { shot, Workspace } from './pages/workspace.js';

const PAGES = [
  { name: 'home', path: '/de/' },
  { name: 'workspace', path: '/de/batch-process/' },
  { name: 'pricing', path: '/de/pricing/' },
  { name: 'feature', path: '/de/image-compressor/' },
];

async function settle(page: Page) {
  await expect(page.getByTestId('credits')).toBeVisible({ timeout: 30_000 });
  await page.evaluate(() => document.fonts.ready);
}

for (const viewport of [
  { name: '375', width: 375, height: 812, touch: true },
  { name: '1366', width: 1366, height: 900, touch: false },
]) {
  test.describe(`de at ${viewport.name} px`, () => {
    test.use({
      viewport: { width: viewport.width, height: viewport.height },
      hasTouch: viewport.touch,
      locale: 'de-DE',
    });

    test('no button cuts its words, nothing runs past the screen edge (home, workspace, pricing, feature page, account)', async ({
      page,
      context,
      baseURL,
    }) => {
      await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
      const found: Record<string, unknown[]> = {};
      for (const p of PAGES) {
        await page.goto(p.path);
        await settle(page);
        if (p.name === 'workspace') {
          await expect(page.getByTestId('workspace')).toBeVisible({ timeout: 30_000 });
          // The feature and workflow tabs hold the longest German labels.
          await new Workspace(page).chooseFeature('compress');
        }
        const o = await layoutOverflows(page);
        if (o.length) found[p.name] = o;
        await page.screenshot({ path: shot(`overflow-de-${viewport.name}-${p.name}`), fullPage: true });
      }
      await new AuthPage(page).register(uniqueEmail('overflow'));
      await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
      await page.goto('/de/my-account/');
      await expect(page.getByTestId('plan-expires')).toBeVisible({ timeout: 30_000 });
      const o = await layoutOverflows(page);
      if (o.length) found.account = o;
      await page.screenshot({ path: shot(`overflow-de-${viewport.name}-account`), fullPage: true });
      expect(found).toEqual({});
    });
  });
}

// The workspace in the other languages on a phone: its tabs, chips and the action bar.
for (const lng of ['en', 'fr', 'ja'] as const) {
  test.describe(`${lng} at 375 px`, () => {
    test.use({ viewport: { width: 375, height: 812 }, hasTouch: true });

    test('the workspace: tabs on one row, no button cut, nothing past the edge', async ({ page, context, baseURL }) => {
      await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
      const ws = new Workspace(page);
      await ws.open(`${lng === 'en' ? '' : `/${lng}`}/batch-process/`);
      await ws.chooseFeature('compress');
      await page.evaluate(() => document.fonts.ready);
      const found = await layoutOverflows(page);
      await page.screenshot({ path: shot(`overflow-${lng}-375-workspace`) });
      expect(found).toEqual([]);
    });
  });
}
