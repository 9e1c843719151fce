// Issue 31 items 2, 3 and 5: what the plan page promises is what the upload keeps (Pro 29 MP whole,
// Basic 20 MP fitted to 14 MP; zone, pricing and the server say the same numbers), later uploads are
// selected up to the plan's limit, and a cut-off JPEG says what is wrong and stays out of Processing.
import { expect, test, type Page } from '@playwright/test';
import { admin, AuthPage, uniqueEmail } from './pages/account.js';
import { photoOf, truncatedJpeg } from './pages/uploadFiles.js';
import { Workspace } from './pages/workspace.js';

async function subscriber(page: Page, level: 'basic' | 'pro'): Promise<Workspace> {
  const email = uniqueEmail(`i31-${level}`);
  await new AuthPage(page).register(email);
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  await admin(email, 'grant', email, level);
  const ws = new Workspace(page);
  await ws.open();
  await expect(page.getByTestId('credits')).toContainText(level === 'pro' ? 'Pro' : 'Basic', { timeout: 30_000 });
  return ws;
}

test.beforeEach(async ({ context, baseURL }) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
});

test('item 2: a Pro upload of a 29 MP photo keeps its pixels; the zone and the pricing page say 34 MP', async ({ page }) => {
  const ws = await subscriber(page, 'pro');
  await expect(page.getByTestId('upload-limits')).toContainText('34 MP');
  await ws.chooseFeature('denoise');
  await ws.upload(await photoOf(6992, 4144));
  const card = ws.card('ready');
  await expect(card).toHaveCount(1, { timeout: 120_000 });
  await expect(card.getByTestId('source-size')).toHaveText('6992×4144');
  await expect(card.getByTestId('resized-note')).toHaveCount(0);
  await page.goto('/pricing/');
  await expect(page.getByTestId('limit-pro')).toContainText('34 MP');
  await expect(page.getByTestId('limit-basic')).toContainText('14 MP');
  await expect(page.getByTestId('limit-free')).toContainText('2.8 MP');
});

test('item 2: a Basic upload of a 20 MP photo is fitted to 14 MP (not to 3000 px)', async ({ page }) => {
  const ws = await subscriber(page, 'basic');
  await expect(page.getByTestId('upload-limits')).toContainText('14 MP');
  await ws.chooseFeature('denoise');
  await ws.upload(await photoOf(5477, 3652));
  const card = ws.card('ready');
  await expect(card).toHaveCount(1, { timeout: 120_000 });
  await expect(card.getByTestId('source-size')).toHaveText('4582×3055');
  await expect(card.getByTestId('resized-note')).toContainText('5477×3652');
});

test('item 3: later uploads are selected up to the plan limit (Basic 5), the button counts them', async ({ page }) => {
  const ws = await subscriber(page, 'basic');
  await ws.chooseFeature('compress');
  await ws.upload('chelsea.png');
  await expect(ws.card('ready')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByTestId('selected-counter')).toHaveText('1/5');
  await ws.upload('coffee.png', 'camera.png');
  await expect(ws.card('ready')).toHaveCount(3, { timeout: 60_000 });
  await expect(page.getByTestId('selected-counter')).toHaveText('3/5');
  await expect(ws.startButton()).toContainText('3');
  await ws.upload('astronaut.png', 'rocket.jpg', 'motorcycle_left.png');
  await expect(ws.card('ready')).toHaveCount(6, { timeout: 90_000 });
  // five selected, the sixth left for later: the cap, not "0"
  await expect(page.getByTestId('selected-counter')).toHaveText('5/5');
  await expect(page.getByTestId('select-all')).toHaveAttribute('aria-checked', 'mixed');
});

test('item 3: a guest after the first auto-start: the next upload is selected', async ({ page, context }) => {
  await context.clearCookies();
  const ws = new Workspace(page);
  await ws.openFeaturePage('/denoise-ai/');
  await ws.upload('chelsea.png');
  await expect(ws.tab('processing')).toHaveAttribute('aria-selected', 'true', { timeout: 60_000 });
  await ws.tab('uploaded').click();
  await ws.upload('coffee.png');
  await expect(ws.card('ready')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByTestId('selected-counter')).toHaveText('1/1');
  await expect(ws.startButton()).toContainText('1');
});

test('item 5: a cut-off JPEG says what is wrong and stays on Uploaded (not Processing); Continue with nothing uploaded says so', async ({ page }) => {
  const ws = new Workspace(page);
  await ws.open();
  await page.getByTestId('continue').click();
  await expect(ws.messageDialog()).toContainText('Upload an image first');
  await ws.messageDialog().getByRole('button').last().click();
  await ws.chooseFeature('denoise');
  await ws.upload(truncatedJpeg());
  await expect(ws.messageDialog()).toContainText('cut off', { timeout: 60_000 });
  await ws.messageDialog().getByRole('button').last().click();
  const card = ws.card('uploadFailed');
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('upload-reason')).toContainText('damaged or cut off');
  await expect(ws.tab('processing').locator('.count')).toHaveText('0');
  // A reload right away (before the works are saved in their batch) keeps it failed, with its reason.
  await page.reload();
  await expect(card).toHaveCount(1, { timeout: 30_000 });
  await expect(card.getByTestId('upload-reason')).toContainText('damaged or cut off');
  await expect(ws.tab('processing').locator('.count')).toHaveText('0');
  await ws.tab('processing').click();
  await expect(page.getByTestId('empty-processing')).toContainText('Upload an image on the Uploaded tab');
});
