// Screenshots of the storefront and the content pages, desktop 1366 and mobile 375, in English
// (tests/e2e/screenshots/content-*.png), for looking at; each still asserts what it shows. German:
// review-content-shots.spec.ts (`npm run test:review`).
import { test } from '@playwright/test';
import { CONTENT_SIZES, contentScreens } from './pages/contentShots.js';

for (const size of CONTENT_SIZES) {
  test(`content screenshots ${size.name} en`, async ({ browser }) => {
    await contentScreens(browser, size, 'en');
  });
}
