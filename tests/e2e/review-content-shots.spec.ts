// Screenshots of the storefront and the content pages, desktop 1366 and mobile 375, in German
// (tests/e2e/screenshots/content-*-de.png), for looking at; each still asserts what it shows. Review suite
// only (`npm run test:review`): the gate shoots English (content-shots.spec.ts); German layouts are checked
// for overflow there too (ui-layout-overflow.spec.ts) and the German titles in content-pages.spec.ts.
import { test } from '@playwright/test';
import { CONTENT_SIZES, contentScreens } from './pages/contentShots.js';

for (const size of CONTENT_SIZES) {
  test(`content screenshots ${size.name} de`, async ({ browser }) => {
    await contentScreens(browser, size, 'de');
  });
}
