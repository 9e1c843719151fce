// The account side's pages on the real server: my account (plan details, survey, history),
// my workflows (paging, rename, delete, open), pricing currencies with checkout, in four languages.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import {
  AccountPage,
  admin,
  apiPost,
  AuthPage,
  expectCredits,
  uniqueEmail,
  userToken,
  WorkflowsPage,
} from './pages/account.js';
import { waitServerFinished } from './pages/storedWorks.js';
import { fixture } from './pages/workspace.js';

const step = (module: string) => ({ name: module, config: JSON.stringify({ module, module_params: {} }) });

test('my account: plan details, survey with the spec text, history from the server, in Japanese too', async ({
  page,
}) => {
  const email = uniqueEmail('account');
  await new AuthPage(page).register(email);
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });

  // One compress work for the history (made through the API as this browser).
  const up = await page.request.post('/web_api/v1/upload', {
    multipart: {
      job: 'compress',
      file: { name: 'rocket.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(fixture('rocket.jpg')) },
    },
  });
  const uid = ((await up.json()) as { data: { data: { uid: string } } }).data.data.uid;
  const { trans_id } = await apiPost<{ trans_id: string }>(page, '/web_api/v1/transform', {
    uid,
    jconfig: JSON.stringify({ job: 'compress' }),
  });

  const acct = new AccountPage(page);
  await acct.open();
  await expect(page.getByTestId('plan-compress')).toHaveText('99');
  await expect(page.getByTestId('plan-expires')).toHaveText('No end date');
  // A new account's untouched allowance is a welcome, not "Only 3 credits left" (in German too).
  await expect(page.getByTestId('plan-free')).toHaveText('You have 3 free credits to try any feature.');
  await expect(page.getByTestId('plan-low')).toHaveCount(0);
  await expect(page.getByTestId('history-row')).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId('history-row').first()).toContainText('rocket.jpg');
  await expect(page.getByTestId('history-row').first()).toContainText('Compress');

  // Survey: at least one option; the answers come back after a reload.
  await page.getByTestId('survey-save').click();
  await expect(page.getByTestId('survey-error')).toHaveText('Please select at least 1 option');
  await page.getByTestId('survey-designer').check();
  await page.getByTestId('survey-student').check();
  await page.getByTestId('survey-save').click();
  await expect(page.getByTestId('survey-status')).toHaveText('Thank you! Your answers have been saved.');
  await page.screenshot({ path: 'tests/e2e/screenshots/account-10-my-account.png', fullPage: true });
  await acct.open();
  await expect(page.getByTestId('survey-designer')).toBeChecked();
  await expect(page.getByTestId('survey-student')).toBeChecked();
  await expect(page.getByTestId('survey-photographer')).not.toBeChecked();
  await acct.open('/de');
  await expect(page.getByTestId('plan-free')).toHaveText('Sie haben 3 kostenlose Credits zum Ausprobieren.');
  await expect(page.getByTestId('plan-low')).toHaveCount(0);

  // Once a credit is spent (a sharpen started through the API), the low-credit warning comes. A free
  // account runs one job at a time, so the compress must have finished first.
  await waitServerFinished(page, trans_id, await userToken(page));
  const up2 = await page.request.post('/web_api/v1/upload', {
    multipart: {
      job: 'sharpen',
      file: { name: 'rocket.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(fixture('rocket.jpg')) },
    },
  });
  const uid2 = ((await up2.json()) as { data: { data: { uid: string } } }).data.data.uid;
  await apiPost(page, '/web_api/v1/transform', { uid: uid2, jconfig: JSON.stringify({ job: 'sharpen' }) });
  await acct.open();
  await expect(page.getByTestId('plan-low')).toHaveText('Only 2 credits left. Add credits to keep processing.');
  await expect(page.getByTestId('plan-free')).toHaveCount(0);

  // An operator's Pro grant shows its end date; then the same page in Japanese.
  await admin(email, 'grant', email, 'pro');
  await acct.open();
  await expect(page.getByTestId('plan-expires')).not.toHaveText('No end date');
  await expect(page.getByTestId('plan-low')).toHaveCount(0);
  await acct.open('/ja');
  await expect(page.getByTestId('plan-card').getByRole('heading')).toHaveText('クレジットとプラン');
  await expect(page.getByTestId('history').getByRole('heading')).toHaveText('処理履歴');
});

test('my workflows: 10 a page, rename (≤ 50 characters), delete, open in the workspace', async ({ page }) => {
  await new AuthPage(page).register(uniqueEmail('workflows'));
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  for (let i = 1; i <= 11; i++)
    await apiPost(page, '/api/work_flow/add', {
      name: `flow ${String(i).padStart(2, '0')}`,
      flows: JSON.stringify([step('denoise'), step('sharpen')]),
    });

  const wf = new WorkflowsPage(page);
  await wf.open();
  await expect(wf.items()).toHaveCount(10);
  await expect(page.getByTestId('wf-pager-status')).toHaveText('Page 1 of 2');
  await expect(wf.items().first().getByTestId('wf-name')).toHaveText('flow 11');
  await page.getByTestId('wf-pager-next').click();
  await expect(wf.items()).toHaveCount(1);
  await expect(wf.item('flow 01')).toHaveCount(1);

  // Rename: too long refused, then saved.
  await wf.item('flow 01').getByTestId('wf-rename').click();
  const input = page.getByTestId('wf-rename-input');
  await input.fill('n'.repeat(51));
  await page.getByTestId('wf-rename-save').click();
  await expect(page.getByRole('alert')).toHaveText('The name can be at most 50 characters.');
  await input.fill('Night scene');
  await page.getByTestId('wf-rename-save').click();
  await expect(wf.item('Night scene')).toHaveCount(1);

  // Delete asks first; the page then falls back to page 1.
  await wf.item('Night scene').getByTestId('wf-delete').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('Night scene');
  await page.getByTestId('confirm-ok').click();
  await expect(wf.items()).toHaveCount(10);
  await expect(page.getByTestId('wf-pager')).toHaveCount(0);
  await page.screenshot({ path: 'tests/e2e/screenshots/account-11-workflows.png', fullPage: true });

  // Open one in the workspace: the workflow tab with its steps.
  await wf.item('flow 05').getByTestId('wf-open').click();
  await expect(page).toHaveURL(/\/batch-process\/$/);
  await expect(page.getByTestId('tab-workflow')).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  await expect(page.getByTestId('step-1')).toBeVisible();

  await wf.open('/fr');
  await expect(page.getByRole('heading', { name: 'Mes workflows' })).toBeVisible();
});

test('pricing: EUR for de, USD for en, JPY when chosen; checkout with the built-in provider makes the account Pro', async ({
  page,
}) => {
  await page.goto('/de/pricing/');
  await expect(page.getByTestId('price-basic')).toContainText('9,90');
  await expect(page.getByTestId('price-basic')).toContainText('€');
  await page.goto('/pricing/');
  await expect(page.getByTestId('price-pro')).toContainText('$19.90');

  await new AuthPage(page).register(uniqueEmail('buy'));
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  await page.goto('/pricing/');
  await page.getByTestId('currency-JPY').click();
  await expect(page.getByTestId('price-pro')).toContainText('¥');
  await page.getByTestId('choose-pro').click();
  await expect(page).toHaveURL(/\/checkout\/\?id=/, { timeout: 30_000 });
  await expect(page.getByTestId('checkout-amount')).toContainText('¥');
  await page.getByTestId('checkout-pay').click();
  await expect(page.getByTestId('checkout-paid')).toBeVisible({ timeout: 30_000 });

  await new AccountPage(page).open();
  await expect(page.getByTestId('account-level')).toHaveText('Pro');
  await expectCredits(page, 500);
});
