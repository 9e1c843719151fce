// What a new user tripped on (issue 40): a scale the photo cannot take is off before Start, with the
// reason; an empty or impossibly large file says so; a start whose answer never reached the page is
// found again from the server's record after a reload.
import { expect, test } from '@playwright/test';
import { admin, AuthPage, expectCredits, PASSWORD, uniqueEmail } from './pages/account.js';
import { photoOf } from './pages/uploadFiles.js';
import { emptyFile, pngDeclaring, WorkLimits } from './pages/workLimits.js';
import { shot, Workspace } from './pages/workspace.js';

test('a 4100×120 photo on Basic: 4x, 6x and 8x are off with the largest side named, 2x stays', async ({ page }) => {
  const email = uniqueEmail('scales');
  await new AuthPage(page).register(email, PASSWORD);
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  await admin(email, 'grant', email, 'basic');
  const ws = new Workspace(page);
  await ws.open();
  await expectCredits(page, 200);
  await ws.chooseFeature('enlarge');
  await ws.upload(await photoOf(4100, 120, 'wide.jpg'));
  const card = ws.card('ready');
  await expect(card).toHaveCount(1, { timeout: 60_000 });
  const check = card.locator('input[type=checkbox]');
  if (!(await check.isChecked())) await check.check();
  const limits = new WorkLimits(page);
  for (const n of [4, 6, 8]) await expect(limits.scale(n)).toBeDisabled();
  await expect(limits.scale(2)).toBeEnabled();
  await expect(limits.scaleNote()).toContainText('4x, 6x, 8x cannot be made for wide.jpg (4100×120)');
  await expect(limits.scaleNote()).toContainText('16384 px');
  await page.setViewportSize({ width: 1366, height: 900 });
  await limits.scaleNote().scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('scale-limit-1366') });
  await page.setViewportSize({ width: 375, height: 800 });
  await limits.scaleNote().scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('scale-limit-375') });
});

test('an empty file is "empty", a PNG declaring 50000×50000 is "too large" with its size (not a wrong type, not damaged)', async ({
  page,
}) => {
  const ws = new Workspace(page);
  await ws.open();
  await ws.chooseFeature('denoise');
  const limits = new WorkLimits(page);
  await ws.upload(emptyFile());
  await expect(ws.messageDialog()).toContainText('empty.png: The file is empty.', { timeout: 30_000 });
  await ws.messageDialog().getByRole('button').last().click();
  await ws.upload(pngDeclaring(50000, 50000));
  await expect(ws.messageDialog()).toContainText(
    'The image is too large (50000×50000): images of at most 100 MP can be opened.',
    { timeout: 30_000 },
  );
  await ws.messageDialog().getByRole('button').last().click();
  await expect(limits.uploadReason(ws.card('imageTooLarge'))).toContainText('too large (50000×50000)');
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: shot('upload-causes-1366') });
  await page.setViewportSize({ width: 375, height: 800 });
  await ws.card('imageTooLarge').scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('upload-causes-375') });
});

test('a start whose answer never reached the page (a tab closed a moment after Start) is found again after a reload', async ({
  page,
}) => {
  const ws = new Workspace(page);
  await ws.open();
  await ws.chooseFeature('compress');
  await ws.upload('rocket.jpg');
  const card = ws.card('ready');
  await expect(card).toHaveCount(1, { timeout: 60_000 });
  const check = card.locator('input[type=checkbox]');
  if (!(await check.isChecked())) await check.check();
  await new WorkLimits(page).loseStartAnswers();
  await ws.startButton().click();
  // The server took the work; the page never learnt its trans_id.
  await ws.tab('processed').click();
  await expect(ws.card('processFailed')).toHaveCount(1, { timeout: 30_000 });
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.reload();
  await expect(page.getByTestId('workspace')).toBeVisible({ timeout: 30_000 });
  await ws.tab('processed').click();
  await expect(ws.card('finished')).toHaveCount(1, { timeout: 60_000 });
  await expect(ws.card('finished').getByTestId('download')).toBeVisible();
});
