// The home page's flagship cut-out is solid: the cat is fully opaque inside (α 255), not see-through
// on the checkerboard (the sample had 0.4 % of its pixels at 255 and 40 % at 250–254).
import { expect, test } from '@playwright/test';
import { Hero } from './pages/showcase.js';

test('the home page cut-out is opaque inside the subject', async ({ page }) => {
  await page.goto('/');
  const hero = new Hero(page);
  expect(await hero.settled()).toBe('shown');
  const alpha = await hero.afterAlpha();
  expect(alpha.solidSubject).toBeGreaterThan(0.9); // the rest is its soft outline (was 0.5 %)
  expect(alpha.nearlyOpaque).toBeLessThan(0.02);
});
