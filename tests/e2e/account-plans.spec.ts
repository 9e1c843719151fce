// Accounts and plans on the real server: register → credits shown → one feature costs one credit;
// an operator grants Pro → 8x and PSD unlock; an expired plan → insufficient-credits dialog → pricing.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { admin, apiPost, AuthPage, userToken, expectCredits, PASSWORD, uniqueEmail } from './pages/account.js';
import { fixture, Workspace } from './pages/workspace.js';

test('register: the form shows the spec texts, then the new account has 3 credits and one sharpen costs one', async ({
  page,
}) => {
  const auth = new AuthPage(page);
  await page.goto('/register/');
  await page.getByTestId('register-submit').click();
  await expect(page.locator('#reg-email-err')).toHaveText('This field is required.');
  await auth.register('not-an-email', 'short', 'other');
  await expect(page.locator('#reg-email-err')).toHaveText('Please enter a valid email address.');

  const email = uniqueEmail('credits');
  await auth.register(email);
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  const ws = new Workspace(page);
  await expectCredits(page, 3);

  await ws.chooseFeature('sharpen');
  await ws.upload('chelsea.png');
  const card = ws.cards().first();
  await expect(card).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  const box = card.locator('input.work-check');
  if (!(await box.isChecked())) await box.check();
  await ws.startButton().click();
  await expect(ws.tab('processed')).toContainText('1', { timeout: 120_000 });
  await ws.tab('processed').click();
  await expect(ws.card('finished')).toHaveCount(1);
  await expectCredits(page, 2);
  await ws.screenshot('account-01-credits-after-one');
});

test('an operator grants Pro: 8x enlarge and PSD become available', async ({ page }) => {
  const email = uniqueEmail('grant');
  await new AuthPage(page).register(email);
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  const ws = new Workspace(page);
  await expectCredits(page, 3);

  // Before: 8x is locked and asks for an upgrade.
  await ws.chooseFeature('enlarge');
  const eight = page.locator('.segmented button[role="radio"]', { hasText: '8x' });
  await expect(eight.locator('.lock')).toHaveCount(1);
  await eight.click();
  await expect(page.getByTestId('upgrade-dialog')).toBeVisible();
  await page.getByTestId('modal-close').click();

  expect(await admin(email, 'grant', email, 'pro')).toMatchObject({ level: 'pro', left_credits: 500 });
  await ws.open();
  await expectCredits(page, 500);
  await ws.chooseFeature('enlarge');
  await expect(eight.locator('.lock')).toHaveCount(0);
  await eight.click();
  await expect(eight).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('upgrade-dialog')).toHaveCount(0);

  await ws.chooseFeature('colorize');
  const psd = page.locator('label.param-switch', { hasText: 'PSD output' });
  await expect(psd.locator('.badge-pro')).toHaveCount(0);
  await psd.locator('input[role="switch"]').check();
  await expect(psd.locator('input[role="switch"]')).toBeChecked();
  await expect(page.getByTestId('upgrade-dialog')).toHaveCount(0);
  await ws.screenshot('account-02-pro-unlocked');
});

test('an expired plan: the guest-like allowance, then at 0 credits Start is off and the panel leads to pricing', async ({
  page,
}) => {
  const email = uniqueEmail('expired');
  await new AuthPage(page).register(email, PASSWORD);
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  await admin(email, 'grant', email, 'basic');
  // Spec §6: an expired plan keeps the guest-like allowance of 3 credits (not 0).
  expect(await admin(email, 'expire', email)).toMatchObject({ level: 'expired', left_credits: 3 });
  // Spend the allowance through the API as this browser: three sharpen works (on a small copy of the
  // photo: only the credits they take are asserted here).
  const photo = await sharp(fs.readFileSync(fixture('rocket.jpg')))
    .resize(160)
    .jpeg()
    .toBuffer();
  for (let i = 0; i < 3; i++) {
    const up = await page.request.post('/web_api/v1/upload', {
      multipart: { job: 'sharpen', file: { name: `rocket-${i}.jpg`, mimeType: 'image/jpeg', buffer: photo } },
    });
    const uid = ((await up.json()) as { data: { data: { uid: string } } }).data.data.uid;
    const { trans_id } = await apiPost<{ trans_id: string }>(page, '/web_api/v1/transform', {
      uid,
      jconfig: JSON.stringify({ job: 'sharpen' }),
    });
    // A free level runs one work at a time: wait for this one before the next.
    const token = await userToken(page);
    await expect
      .poll(
        async () =>
          (await (await page.request.get(`/web_api/v1/progress?trans_id=${trans_id}&user_token=${token}`)).json()).data
            ?.status,
        { timeout: 90_000 },
      )
      .toBe('finish');
  }
  expect(await admin(email, 'show', email)).toMatchObject({ level: 'expired', left_credits: 0 });

  const ws = new Workspace(page);
  await ws.open();
  await expectCredits(page, 0);
  await ws.chooseFeature('sharpen');
  await ws.upload('chelsea.png');
  const card = ws.cards().first();
  await expect(card).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  const box = card.locator('input.work-check');
  if (!(await box.isChecked())) await box.check();
  // Start is not offered at 0 credits (the 10012 dialog path stays for stale credits: ui-credits.spec.ts).
  await expect(ws.startButton()).toBeDisabled();
  const note = page.getByTestId('low-credits');
  await expect(note).toBeVisible();
  await ws.screenshot('account-03-no-credits');
  await note.getByRole('link').click();
  await expect(page).toHaveURL(/\/pricing\/\?source=low_credit/, { timeout: 10_000 });
});
