// The developer section of /my-account/ on the real server: a Pro account creates its API token, sees
// it once, uses it, resets it (the old one stops); a free account is told why and buys an API pack
// through the local checkout (every account may hold a key: free previews, full size with its credits). Screenshots at 1366 and 375 px.
import { expect, test, type Page } from '@playwright/test';
import { API_PLANS } from '../../src/shared/domain/apiPlans.js';
import { PLAN_LIMITS } from '../../src/shared/domain/plans.js';
import { admin, AuthPage, uniqueEmail } from './pages/account.js';
import { ApiTokenSection } from './pages/apiToken.js';

async function registered(page: Page, tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  await new AuthPage(page).register(email);
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  return email;
}

/** A call with the API token alone (no cookies): the licence answer. */
async function licenseWith(page: Page, token: string) {
  const r = await page.request.fetch('/api/v2/license', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    maxRedirects: 0,
  });
  return { status: r.status(), body: (await r.json()) as { code: number; data: { user_level?: string } } };
}

for (const width of [1366, 375]) {
  test(`Pro at ${width}px: create the token (shown once), use it, reset it`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 812 });
    const email = await registered(page, `api-${width}`);
    await admin(email, 'grant', email, 'pro');
    const api = new ApiTokenSection(page);
    await api.open();
    await expect(api.createButton()).toBeVisible();
    await api.screenshot(`api-section-${width}-before`);

    const token = await api.create();
    expect(token).toMatch(/^pxm_[A-Za-z0-9_-]{43}$/);
    await expect(api.masked()).toHaveText(`pxm_…${token.slice(-4)}`);
    await expect(api.calls()).toHaveText('0');
    await expect(api.packCredits()).toHaveCount(0);
    await api.screenshot(`api-section-${width}-created`);
    // nothing wider than the screen
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    expect((await licenseWith(page, token)).body).toMatchObject({ code: 200, data: { user_level: 'pro' } });
    // shown once: after a reload only the masked form, and the call is counted
    await api.open();
    await expect(api.fullToken()).toHaveCount(0);
    await expect(api.masked()).toHaveText(`pxm_…${token.slice(-4)}`);
    await expect(api.calls()).toHaveText('1');

    const fresh = await api.reset();
    expect(fresh).not.toBe(token);
    expect((await licenseWith(page, token)).status).toBe(401);
    expect((await licenseWith(page, fresh)).body.code).toBe(200);
  });
}

test('a free account creates a free key (free previews, the webhook secret once), buys an API pack through the checkout', async ({
  page,
}) => {
  const email = await registered(page, 'api-free');
  const api = new ApiTokenSection(page);
  await api.open();
  await expect(api.notEntitled()).toHaveCount(0);
  await api.create();
  await expect(api.root.getByTestId('api-webhook-secret')).toHaveText(/^whsec_/);
  await expect(api.root.getByTestId('api-free-previews')).toContainText('50');
  await expect(api.root.getByTestId('api-webhooks')).toBeVisible();
  await api.screenshot('api-section-1366-free');

  const pack = API_PLANS[0]!;
  await api.plan(pack.name).getByRole('button').click();
  await expect(page).toHaveURL(/\/checkout\/\?id=/, { timeout: 30_000 });
  await page.getByTestId('checkout-pay').click();
  await expect(page.getByTestId('checkout-paid')).toBeVisible({ timeout: 30_000 });

  await api.open();
  await expect(api.credits()).toHaveText(String(3 + pack.credits));
  await expect(api.packCredits()).toHaveText(String(pack.credits));

  // going Pro keeps the pack's credits beside Pro's own
  await admin(email, 'grant', email, 'pro');
  await api.open();
  await expect(api.credits()).toHaveText(String(PLAN_LIMITS.pro.credits + pack.credits));
  await expect(api.packCredits()).toHaveText(String(pack.credits));
  await api.screenshot('api-section-1366-pack-pro');
  await page.setViewportSize({ width: 375, height: 812 });
  await api.open();
  await expect(api.packCredits()).toHaveText(String(pack.credits));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await api.screenshot('api-section-375-pack-pro');
});
