// Guest identity across login and logout: the guest token acts for the account while logged in
// (bind_token on login) and for its own guest account after logout (unbind_token) — every time.
import { expect, test, type Page } from '@playwright/test';
import { AuthPage, PASSWORD, uniqueEmail } from './pages/account.js';

async function guestTokenLevel(page: Page): Promise<string> {
  const c = (await page.context().cookies()).find((x) => x.name === 'guest_token');
  if (!c) throw new Error('no guest_token cookie');
  const r = await page.request.post('/api/v2/license', { form: { guest_token_v2: decodeURIComponent(c.value) } });
  return ((await r.json()) as { data: { user_level: string } }).data.user_level;
}

async function login(page: Page, email: string) {
  await page.goto('/login/');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
}

test('bind on every login, unbind on every logout', async ({ page }) => {
  const email = uniqueEmail('bind');
  await page.goto('/batch-process/');
  await expect(page.getByTestId('credits')).toBeVisible({ timeout: 30_000 });
  expect(await guestTokenLevel(page)).toBe('guest');

  await new AuthPage(page).register(email);
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  await expect.poll(() => guestTokenLevel(page), { timeout: 30_000 }).toBe('register');

  for (let round = 0; round < 2; round++) {
    await page.goto('/my-account/');
    await page.getByTestId('logout').click();
    await expect.poll(() => guestTokenLevel(page), { timeout: 30_000 }).toBe('guest');
    await login(page, email);
    await expect.poll(() => guestTokenLevel(page), { timeout: 30_000 }).toBe('register');
  }
});
