// A Basic subscriber (bought through the real checkout) uploads 6 images and can select 5; the 6th is refused.
import { expect, test } from '@playwright/test';
import { Workspace } from './pages/workspace.js';

test('basic user: 5 of 6 images selectable, the 6th refused; 4x scale allowed', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  const email = `basic-${Date.now()}@example.com`;
  await page.goto('/register/');
  await page.getByTestId('reg-email').fill(email);
  await page.getByTestId('reg-password').fill('basic1234');
  await page.getByTestId('reg-confirm').fill('basic1234');
  await page.getByTestId('register-submit').click();
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });

  await page.goto('/pricing/?source=e2e&medium=basic_test');
  await page.getByTestId('choose-basic').click();
  await expect(page).toHaveURL(/\/checkout\/\?id=/);
  await expect(page.getByTestId('checkout-amount')).toContainText('$9.90');
  await page.getByTestId('checkout-pay').click();
  await expect(page.getByTestId('checkout-paid')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('credits')).toContainText('Basic');

  const ws = new Workspace(page);
  await ws.open('/batch-process/');
  await expect(page.getByTestId('selected-counter')).toHaveText('0/5');
  await ws.chooseFeature('compress');
  await ws.upload('chelsea.png', 'coffee.png', 'astronaut.png', 'camera.png', 'rocket.jpg');
  await expect(ws.card('ready')).toHaveCount(5, { timeout: 90_000 });
  await ws.upload('motorcycle_left.png');
  await expect(ws.card('ready')).toHaveCount(6, { timeout: 90_000 });
  // A subscriber's works are kept 30 days (RETENTION_DAYS_SUBSCRIBER), and the list says so.
  await expect(page.getByTestId('retention-note')).toHaveText(
    'Uploads and results are kept for 30 days, then deleted.',
  );

  // New ready uploads are selected up to the plan's limit; the 6th stays unchecked and
  // select-all shows mixed (not checked) at the cap.
  await expect(page.getByTestId('selected-counter')).toHaveText('5/5');
  await expect(page.getByTestId('select-all')).toHaveAttribute('aria-checked', 'mixed');
  const unselected = ws.card('ready').filter({ has: page.locator('input[type=checkbox]:not(:checked)') });
  await expect(unselected).toHaveCount(1);
  await unselected.locator('input[type=checkbox]').click();
  await expect(page.getByTestId('toast')).toContainText('as many images as your plan');
  await expect(page.getByTestId('selected-counter')).toHaveText('5/5');
  await expect(unselected.locator('input[type=checkbox]')).not.toBeChecked();
  await expect(page.getByTestId('selected-footer')).toHaveText('5 selected');
  await ws.screenshot('basic-01-five-selected');

  // Logged-in users queue the whole selection: one processing, the rest waiting, then all finish in turn.
  await ws.startButton().click();
  await expect(ws.tab('processing')).toHaveAttribute('aria-selected', 'true');
  await expect(ws.card('waiting').first()).toBeVisible();
  await expect(page.locator('[data-testid="work-card"][data-status="processing"]')).toHaveCount(1);
  await ws.screenshot('basic-02-queue');
  await ws.tab('processed').click();
  await expect(ws.card('finished')).toHaveCount(5, { timeout: 120_000 });
  await expect(page.getByTestId('credits')).toContainText('200'); // compress uses the separate compress allowance
  await ws.tab('uploaded').click();

  // Subscribers may enlarge 4x without an upgrade prompt.
  await page.getByTestId('feature-enlarge').click();
  await page.getByRole('radio', { name: /^4x/ }).click();
  await expect(page.getByRole('radio', { name: /^4x/ })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('upgrade-dialog')).toHaveCount(0);
});
