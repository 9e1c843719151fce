// My account: profile form (occupation required, 'other' needs its text) and password change rules.
import { expect, test } from '@playwright/test';
import { Workspace } from './pages/workspace.js';

test('profile and password forms validate with the spec texts and save on the server', async ({ page }) => {
  await page.goto('/register/');
  await page.getByTestId('reg-email').fill(`acct-${Date.now()}@example.com`);
  await page.getByTestId('reg-password').fill('account123');
  await page.getByTestId('reg-confirm').fill('account123');
  await page.getByTestId('register-submit').click();
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });

  await page.goto('/my-account/');
  await expect(page.getByTestId('account-level')).toHaveText('Free');
  const profile = page.getByTestId('profile-form');
  await page.getByTestId('profile-save').click();
  await expect(profile.getByText('This field is required.')).toHaveCount(3);
  await page.getByTestId('profile-first').fill('Ada');
  await page.getByTestId('profile-last').fill('Lovelace');
  await page.getByTestId('profile-occupation').selectOption('other');
  await page.getByTestId('profile-save').click();
  await expect(profile.getByText('This field is required.')).toHaveCount(1);
  await page.getByTestId('profile-other').fill('Mathematician');
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('profile-status')).toHaveText('Your profile has been saved.');
  await page.reload();
  await expect(page.getByTestId('profile-other')).toHaveValue('Mathematician');

  const pw = page.getByTestId('password-form');
  await page.getByTestId('pw-old').fill('account123');
  await page.getByTestId('pw-new').fill('account123');
  await page.getByTestId('pw-confirm').fill('account123');
  await page.getByTestId('password-save').click();
  await expect(pw).toContainText('The new password must differ from the old password.');
  await page.getByTestId('pw-new').fill('account456');
  await page.getByTestId('pw-confirm').fill('account456');
  await page.getByTestId('password-save').click();
  await expect(page.getByTestId('password-status')).toHaveText('Your password has been changed.');
  // The server revoked the old user token; the page took a new one, so the workspace's calls still work.
  const userToken = (await page.context().cookies()).find((c) => c.name === 'user_token')!.value;
  const license = await page.request.post('/api/v2/license', { form: { user_token: userToken } });
  expect((await license.json()).code).toBe(200);
  await new Workspace(page).screenshot('account-forms');

  await page.getByTestId('logout').click();
  await page.goto('/login/');
  await page.getByTestId('login-email').fill('nobody-here@example.com');
  await page.getByTestId('login-password').fill('whatever1');
  await page.getByTestId('login-submit').click();
  // An unknown address gets the same answer as a wrong password (code 3, reason loginFailed), so the form tells
  // nobody who has an account; the form shows the reason's text from the catalogue, not the API's short msg
  await expect(page.getByRole('alert')).toHaveText('The email address or password is incorrect.');
});
