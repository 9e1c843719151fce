/**
 * The storefront and content pages (home, about, a post, the API docs, authors, the desktop app) at one size
 * and language, shot under tests/e2e/screenshots/content-*.png for looking at; each page still asserts what
 * it shows and that nothing is wider than the screen. The gate shoots English (content-shots.spec.ts), the
 * review suite German (review-content-shots.spec.ts).
 */
import { expect, type Browser } from '@playwright/test';
import { ContentPages, type Lang } from './content.js';

export const CONTENT_SIZES = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'mobile', width: 375, height: 812 },
] as const;
const PAGES = [
  { name: 'home', path: '/', testId: 'before-after' },
  { name: 'about', path: '/about-us/', testId: 'about-page' },
  { name: 'post', path: '/posts/how-enlarge-works/', testId: 'blog-post' },
  { name: 'api', path: '/api-docs/', testId: 'api-docs' },
  { name: 'authors', path: '/author/', testId: 'authors-page' },
  { name: 'desktop-app', path: '/download-win/', testId: 'desktop-app-page' },
] as const;

export async function contentScreens(browser: Browser, size: (typeof CONTENT_SIZES)[number], lng: Lang): Promise<void> {
  const ctx = await browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: size.width, height: size.height },
    hasTouch: size.name === 'mobile',
    isMobile: size.name === 'mobile',
  });
  const page = await ctx.newPage();
  const c = new ContentPages(page);
  for (const p of PAGES) {
    await c.open(p.path, lng);
    await expect(page.getByTestId(p.testId)).toBeVisible();
    if (p.name === 'home') await expect(page.getByTestId('before-after').locator('img').first()).toBeVisible();
    // Nothing wider than the screen (German words, API paths).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    await page.waitForLoadState('networkidle');
    await c.shot(`content-${p.name}-${size.name}-${lng}`);
    if (p.name === 'api') {
      // The calls themselves: the upload group's first cards, fields and examples.
      await page.locator('#api-upload').scrollIntoViewIfNeeded();
      await page.evaluate(() => document.getElementById('api-upload')!.scrollIntoView());
      await expect(page.getByTestId('api-call').filter({ hasText: '/web_api/v1/upload' }).first()).toBeInViewport();
      await c.shot(`content-api-calls-${size.name}-${lng}`);
    }
  }
  await ctx.close();
}
