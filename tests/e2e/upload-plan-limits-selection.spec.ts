// What the plan page promises is what the upload keeps (Pro 29 MP whole, Basic 20 MP fitted to 14 MP;
// zone, pricing and the server say the same numbers), and later uploads are selected up to the plan's limit.
import { expect, test, type Page } from '@playwright/test';
import { admin, AuthPage, uniqueEmail } from './pages/account.js';
import { photoOf } from './pages/uploadFiles.js';
import { Workspace } from './pages/workspace.js';

async function subscriber(page: Page, level: 'basic' | 'pro'): Promise<Workspace> {
  const email = uniqueEmail(`limits-${level}`);
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

test('a Pro upload of a 29 MP photo keeps its pixels; the zone and the pricing page say 34 MP', async ({ page }) => {
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

test('a Basic upload of a 20 MP photo is fitted to 14 MP (not to 3000 px)', async ({ page }) => {
  const ws = await subscriber(page, 'basic');
  await expect(page.getByTestId('upload-limits')).toContainText('14 MP');
  await ws.chooseFeature('denoise');
  await ws.upload(await photoOf(5477, 3652));
  const card = ws.card('ready');
  await expect(card).toHaveCount(1, { timeout: 120_000 });
  await expect(card.getByTestId('source-size')).toHaveText('4582×3055');
  await expect(card.getByTestId('resized-note')).toContainText('5477×3652');
});

test('later uploads are selected up to the plan limit (Basic 5), the button counts them', async ({ page }) => {
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

test('a guest after the first auto-start: the next upload is selected', async ({ page, context }) => {
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
