// Screenshots of the first-impression screens, desktop (1366) and mobile (375), in English and German — for
// review by eye (tests/e2e/screenshots/first-impression-*.png). Each step still asserts what it shows.
// Review suite only (`npm run test:review`): what these screens show is the gate's in ui-first-impression
// (first use asks, the ready moment, zoom, the offline banner), ui-mobile-actionbar (Start on a phone) and
// ui-layout-overflow (German layouts at 375 and 1366 px).
import { test } from '@playwright/test';
import { firstImpressionScreens, SCREEN_SIZES } from './pages/firstImpression.js';

// the offline step needs the service worker
test.use({ serviceWorkers: 'allow' });

for (const v of SCREEN_SIZES) {
  for (const lng of ['en', 'de'] as const) {
    test(`first-impression screens, ${v.name} ${lng}`, async ({ page, context, baseURL, browser }) => {
      await firstImpressionScreens({ page, context, baseURL, browser }, v, lng);
    });
  }
}
