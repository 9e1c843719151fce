// Login CSRF: a page on another site posts the login form with the attacker's
// credentials. Before the fix the app answered 200 with a session cookie, and the victim's workspace
// then bound its guest uploads to the attacker's account. Now the post is refused with the envelope
// and no cookie, and the victim's guest token stays the guest's.
import { expect, test, type Page } from '@playwright/test';
import { AuthPage, PASSWORD, uniqueEmail } from './pages/account.js';
import { CrossSitePage } from './pages/crossSite.js';

async function guestTokenLevel(page: Page): Promise<string> {
  const c = (await page.context().cookies()).find((x) => x.name === 'guest_token');
  if (!c) throw new Error('no guest_token cookie');
  const r = await page.request.post('/api/v2/license', { form: { guest_token_v2: decodeURIComponent(c.value) } });
  return ((await r.json()) as { data: { user_level: string } }).data.user_level;
}

test('a login form posted from another site is refused and logs nobody in', async ({ page, browser, baseURL }) => {
  // The attacker's account, made in a browser of its own.
  const attacker = uniqueEmail('csrf-attacker');
  const own = await browser.newContext({ baseURL });
  await new AuthPage(await own.newPage()).register(attacker);
  await own.close();

  // The victim works as a guest in the workspace.
  await page.goto('/batch-process/');
  await expect(page.getByTestId('credits')).toBeVisible({ timeout: 30_000 });
  expect(await guestTokenLevel(page)).toBe('guest');

  // The victim opens the attacker's page, which posts the app's login form.
  const answer = await new CrossSitePage(page, new URL(baseURL!).origin).postForm('/api/account/login', {
    email: attacker,
    password: PASSWORD,
  });
  expect(answer.status()).toBe(403);
  expect(await answer.json()).toEqual({
    code: 10001,
    msg: 'cross-site request refused',
    data: { reason: 'crossSite' },
  });
  expect(await answer.headerValue('set-cookie')).toBeNull();
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain('pixmill_session');

  // Back in the workspace: still the guest, whose token was bound to nobody.
  await page.goto('/batch-process/');
  await expect(page.getByTestId('credits')).toBeVisible({ timeout: 30_000 });
  expect(await guestTokenLevel(page)).toBe('guest');
  expect((await page.request.get('/api/account/me')).status()).toBe(401);

  // The app's own login form (same origin) still logs in.
  await page.goto('/login/');
  await page.getByTestId('login-email').fill(attacker);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  expect((await page.context().cookies()).map((c) => c.name)).toContain('pixmill_session');
});
