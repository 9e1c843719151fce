// A paid result must not come back as "Ready". The tab is closed while the job runs,
// reopened after the server finished it: the work is in Processed, downloadable, and no second
// credit is spent; the account's history downloads the same result.
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import fs from 'node:fs';
import { AuthPage, uniqueEmail, userToken } from './pages/account.js';
import { storedWorks, usedCredits, waitServerFinished } from './pages/storedWorks.js';
import { Workspace } from './pages/workspace.js';

test('close the tab during a job, reopen after it finished: Processed, downloadable, no new charge; history downloads it', async ({
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  const page = await context.newPage();
  await new AuthPage(page).register(uniqueEmail('reopen'));
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  const ws = new Workspace(page);
  await ws.open('/batch-process/');
  await ws.chooseFeature('denoise');
  await ws.upload('chelsea.png');
  const card = ws.card('ready');
  await expect(card).toHaveCount(1, { timeout: 60_000 });
  const check = card.locator('input[type=checkbox]');
  if (!(await check.isChecked())) await check.check();

  const started = page.waitForResponse((r) => r.url().includes('/web_api/v1/transform'));
  await ws.startButton().click();
  const transId = ((await (await started).json()) as { data: { trans_id: string } }).data.trans_id;
  expect(transId).toBeTruthy();
  // The page keeps the started work (with its trans_id) before it goes away mid-poll.
  await expect
    .poll(async () => (await storedWorks(page)).find((w) => w.transId === transId)?.status, { timeout: 10_000 })
    .toMatch(/processing|waiting/);
  const token = await userToken(page);
  const used = await usedCredits(page);
  expect(used).toBe(1);
  await page.close();

  await waitServerFinished(await context.newPage(), transId, token);

  const again = await context.newPage();
  const ws2 = new Workspace(again);
  await ws2.open('/batch-process/');
  await ws2.tab('processed').click();
  await expect(ws2.card('finished')).toHaveCount(1, { timeout: 30_000 });
  await expect(ws2.tab('uploaded').locator('.count')).toHaveText('0');
  const [download] = await Promise.all([
    again.waitForEvent('download'),
    ws2.card('finished').getByTestId('download').click(),
  ]);
  const file = await download.path();
  const meta = await sharp(fs.readFileSync(file)).metadata();
  expect([meta.width, meta.height]).toEqual([451, 300]);
  expect(await usedCredits(again)).toBe(used);
  await again.setViewportSize({ width: 1366, height: 900 });
  await again.screenshot({ path: 'bench/results/ui-screens/01-reopened-processed-1366.png' });

  // The account's history lists the result with a download link while it is kept.
  await again.goto('/my-account/');
  const row = again.locator('[data-testid="history-row"][data-status="finished"]');
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  const [fromHistory] = await Promise.all([
    again.waitForEvent('download'),
    row.getByTestId('history-download').click(),
  ]);
  const meta2 = await sharp(fs.readFileSync(await fromHistory.path())).metadata();
  expect([meta2.width, meta2.height]).toEqual([451, 300]);
  await row.scrollIntoViewIfNeeded();
  await again.screenshot({ path: 'bench/results/ui-screens/02-history-download-1366.png' });
  await again.setViewportSize({ width: 375, height: 800 });
  await row.scrollIntoViewIfNeeded();
  await again.screenshot({ path: 'bench/results/ui-screens/02-history-download-375.png' });
  expect(await usedCredits(again)).toBe(used);
});
