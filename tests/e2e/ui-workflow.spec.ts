// Workflow tab: ?medium preset, enlarge/matting only as the last step (locks adding), delete hidden
// for the first step, the step limit, and saving a workflow for a registered user.
import { expect, test } from '@playwright/test';
import { AuthPage, uniqueEmail } from './pages/account.js';
import { WorkflowPanel } from './pages/workflowPanel.js';
import { Workspace } from './pages/workspace.js';

test('?medium=ai_old_photo_repire_colorize opens the workflow tab with that preset', async ({ page }) => {
  const ws = new Workspace(page);
  const wf = new WorkflowPanel(page);
  await ws.open('/batch-process/?medium=ai_old_photo_repire_colorize');
  await wf.expectSelected();
  await expect(wf.preset('ai_old_photo_repire_colorize')).toHaveAttribute('aria-pressed', 'true');
  await expect(wf.modules()).toHaveCount(3);
  await expect(wf.module(0)).toHaveValue('denoise');
  await expect(wf.module(1)).toHaveValue('colorize');
  await expect(wf.module(2)).toHaveValue('enlarge');
  // Guests do not get add-step or save-workflow.
  await expect(wf.addButton()).toHaveCount(0);
  await expect(wf.saveButton()).toHaveCount(0);
  await ws.screenshot('workflow-01-medium');
});

test('registered user: enlarge last locks adding, 3-step limit, delete hidden on step 1, save workflow', async ({
  page,
}) => {
  const auth = new AuthPage(page);
  const ws = new Workspace(page);
  const wf = new WorkflowPanel(page);
  const email = uniqueEmail('ui-workflow');
  await auth.register(email, 'short', 'short');
  await expect(page.locator('#reg-password-err')).toBeVisible();
  await auth.register(email, 'secret123', 'secret123');
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  await expect(page.getByText('My account')).toBeVisible();

  await wf.open();
  await expect(wf.deleteButton(0)).toHaveCount(0);
  // Enlarge as step 1 is allowed but locks adding.
  await wf.setStep(0, 'enlarge');
  await expect(wf.addButton()).toBeDisabled();
  await expect(wf.addLock()).toContainText('Enlarge is the last step');
  await wf.setStep(0, 'denoise');
  await wf.addStep();
  await expect(wf.deleteButton(1)).toBeVisible();
  await wf.setStep(1, 'matting');
  await expect(wf.addButton()).toBeDisabled();
  await wf.setStep(1, 'sharpen');
  await wf.addStep();
  // Three steps is the limit below Pro.
  await expect(wf.addButton()).toBeDisabled();
  await expect(wf.addLock()).toContainText('3 steps');
  await wf.setStep(2, 'enlarge');
  await ws.screenshot('workflow-02-chain');

  // Subscriber-only scale asks for an upgrade with source/medium on the pricing link.
  await wf.openStepSettings(2);
  await wf.step(2).getByRole('radio', { name: /4x/ }).click();
  await expect(page.getByTestId('upgrade-dialog')).toBeVisible();
  await page.getByTestId('upgrade-go').click();
  await expect(page).toHaveURL(/\/pricing\/\?source=workflow&medium=scale_4x/);
  await page.goBack();

  await wf.open();
  await wf.save('x'.repeat(51));
  await expect(wf.saveDialog()).toContainText('at most 50 characters');
  // An empty name becomes workflow_<readable timestamp> (spec §5).
  await wf.save('');
  await expect(wf.saveDialog()).toHaveCount(0);
  // The saved workflow joins the chips of the workflow tab at once.
  await expect(wf.savedChips(/^workflow_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}$/)).toHaveCount(1);
  await page.goto('/my-account/workflow/');
  await expect(page.getByText(/^workflow_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}$/)).toBeVisible();
  await ws.screenshot('workflow-03-saved');
});

test('registered user runs a two-step workflow (denoise → enlarge 2x) on the real server', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  const ws = new Workspace(page);
  const wf = new WorkflowPanel(page);
  await new AuthPage(page).register(uniqueEmail('wf-run'), 'runwf1234');
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  await ws.upload('chelsea.png');
  await expect(ws.card('ready')).toHaveCount(1, { timeout: 60_000 });
  await ws.card('ready').locator('input[type=checkbox]').check();
  await wf.open();
  await wf.setStep(0, 'denoise');
  await wf.addStep('enlarge');
  await ws.startButton().click();
  await expect(ws.tab('processing')).toHaveAttribute('aria-selected', 'true');
  await ws.tab('processed').click();
  const done = ws.card('finished');
  await expect(done).toHaveCount(1, { timeout: 180_000 });
  await expect(done.getByTestId('output-size')).toHaveText('902×600');
  await done.getByTestId('preview').click();
  await expect(page.getByTestId('img-after')).toBeVisible({ timeout: 15_000 });
  await expect
    .poll(() => page.getByTestId('img-after').evaluate((i) => (i as HTMLImageElement).naturalWidth), {
      timeout: 15_000,
    })
    .toBe(902);
  await ws.screenshot('workflow-04-run');
});
