// Workflow tab: ?medium preset, enlarge/matting only as the last step (locks adding), delete hidden
// for the first step, the step limit, and saving a workflow for a registered user.
import { expect, test } from '@playwright/test';
import { Workspace } from './pages/workspace.js';

test('?medium=ai_old_photo_repire_colorize opens the workflow tab with that preset', async ({ page }) => {
  const ws = new Workspace(page);
  await ws.open('/batch-process/?medium=ai_old_photo_repire_colorize');
  await expect(page.getByTestId('tab-workflow')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('preset-ai_old_photo_repire_colorize')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('[data-testid^="step-"] select')).toHaveCount(3);
  await expect(page.locator('#step-0-module')).toHaveValue('denoise');
  await expect(page.locator('#step-1-module')).toHaveValue('colorize');
  await expect(page.locator('#step-2-module')).toHaveValue('enlarge');
  // Guests do not get add-step or save-workflow.
  await expect(page.getByTestId('add-step')).toHaveCount(0);
  await expect(page.getByTestId('save-workflow')).toHaveCount(0);
  await ws.screenshot('workflow-01-medium');
});

test('registered user: enlarge last locks adding, 3-step limit, delete hidden on step 1, save workflow', async ({ page }) => {
  const email = `ui-${Date.now()}@example.com`;
  await page.goto('/register/');
  await page.getByTestId('reg-email').fill(email);
  await page.getByTestId('reg-password').fill('short');
  await page.getByTestId('reg-confirm').fill('short');
  await page.getByTestId('register-submit').click();
  await expect(page.locator('#reg-password-err')).toBeVisible();
  await page.getByTestId('reg-password').fill('secret123');
  await page.getByTestId('reg-confirm').fill('secret123');
  await page.getByTestId('register-submit').click();
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  await expect(page.getByText('My account')).toBeVisible();

  await page.getByTestId('tab-workflow').click();
  await expect(page.getByTestId('delete-step-0')).toHaveCount(0);
  // Enlarge as step 1 is allowed but locks adding.
  await page.locator('#step-0-module').selectOption('enlarge');
  await expect(page.getByTestId('add-step')).toBeDisabled();
  await expect(page.getByTestId('add-lock')).toContainText('Enlarge is the last step');
  await page.locator('#step-0-module').selectOption('denoise');
  await page.getByTestId('add-step').click();
  await expect(page.getByTestId('delete-step-1')).toBeVisible();
  await page.locator('#step-1-module').selectOption('matting');
  await expect(page.getByTestId('add-step')).toBeDisabled();
  await page.locator('#step-1-module').selectOption('sharpen');
  await page.getByTestId('add-step').click();
  // Three steps is the limit below Pro.
  await expect(page.getByTestId('add-step')).toBeDisabled();
  await expect(page.getByTestId('add-lock')).toContainText('3 steps');
  await page.locator('#step-2-module').selectOption('enlarge');
  await ws(page).screenshot('workflow-02-chain');

  // Subscriber-only scale asks for an upgrade with source/medium on the pricing link.
  await page.getByTestId('toggle-step-2').click();
  await page.getByTestId('step-2').getByRole('radio', { name: /4x/ }).click();
  await expect(page.getByTestId('upgrade-dialog')).toBeVisible();
  await page.getByTestId('upgrade-go').click();
  await expect(page).toHaveURL(/\/pricing\/\?source=workflow&medium=scale_4x/);
  await page.goBack();

  await page.getByTestId('tab-workflow').click();
  await page.getByTestId('save-workflow').click();
  await page.getByTestId('workflow-name').fill('x'.repeat(51));
  await page.getByTestId('save-workflow-dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('save-workflow-dialog')).toContainText('at most 50 characters');
  await page.getByTestId('workflow-name').fill('');
  await page.getByTestId('save-workflow-dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('save-workflow-dialog')).toHaveCount(0);
  // The saved workflow joins the chips of the workflow tab at once.
  await expect(page.locator('.chip-row .chip', { hasText: /^workflow_\d+$/ })).toHaveCount(1);
  await page.goto('/my-account/workflow/');
  await expect(page.getByText(/^workflow_\d+$/)).toBeVisible();
  await ws(page).screenshot('workflow-03-saved');
});

const ws = (page: import('@playwright/test').Page) => new Workspace(page);

test('registered user runs a two-step workflow (denoise → enlarge 2x) on the real server', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  await page.goto('/register/');
  await page.getByTestId('reg-email').fill(`wf-run-${Date.now()}@example.com`);
  await page.getByTestId('reg-password').fill('runwf1234');
  await page.getByTestId('reg-confirm').fill('runwf1234');
  await page.getByTestId('register-submit').click();
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  const w = ws(page);
  await w.upload('chelsea.png');
  await expect(w.card('ready')).toHaveCount(1, { timeout: 60_000 });
  await w.card('ready').locator('input[type=checkbox]').check();
  await page.getByTestId('tab-workflow').click();
  await page.locator('#step-0-module').selectOption('denoise');
  await page.getByTestId('add-step').click();
  await page.locator('#step-1-module').selectOption('enlarge');
  await w.startButton().click();
  await expect(w.tab('processing')).toHaveAttribute('aria-selected', 'true');
  await w.tab('processed').click();
  const done = w.card('finished');
  await expect(done).toHaveCount(1, { timeout: 180_000 });
  await expect(done.getByTestId('output-size')).toHaveText('902×600');
  await done.getByTestId('preview').click();
  await expect(page.getByTestId('img-after')).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => page.getByTestId('img-after').evaluate((i) => (i as HTMLImageElement).naturalWidth), { timeout: 15_000 }).toBe(902);
  await w.screenshot('workflow-04-run');
});
