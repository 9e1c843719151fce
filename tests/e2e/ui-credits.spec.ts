// A guest has 3 credits: after they are spent, starting another image answers 10012 and the
// insufficient-credits dialog shows, closes after 3 s and goes to pricing; the work is removed.
import { expect, test } from '@playwright/test';
import { Workspace } from './pages/workspace.js';

test('guest out of credits: 10012 on start → dialog → pricing after 3 s', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  const ws = new Workspace(page);
  await ws.open();
  await expect(page.getByTestId('credits')).toContainText('3');
  await ws.chooseFeature('denoise');
  await ws.upload('chelsea.png');
  const card = ws.card('ready');
  await expect(card).toHaveCount(1, { timeout: 60_000 });
  const uid = await card.getAttribute('data-uid');
  expect(uid).toBeTruthy();

  // Spend the three credits on the real server with the same guest token.
  const token = (await context.cookies()).find((c) => c.name === 'user_token')!.value;
  for (let i = 0; i < 3; i++) {
    const res = await page.request.post('/web_api/v1/transform', {
      form: { uid: uid!, user_token: token, jconfig: JSON.stringify({ job: 'denoise' }) },
    });
    const body = await res.json();
    expect(body.code).toBe(200);
    // A guest runs one work at a time: wait for this one to end before starting the next.
    await expect
      .poll(
        async () =>
          (
            await (
              await page.request.get(`/web_api/v1/progress?trans_id=${body.data.trans_id}&user_token=${token}`)
            ).json()
          ).data?.status,
        { timeout: 90_000 },
      )
      .toBe('finish');
  }

  await card.locator('input[type=checkbox]').check();
  await expect(page.getByTestId('selected-counter')).toHaveText('1/1');
  await ws.startButton().click();
  const dialog = page.getByTestId('insufficient-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Insufficient Credits');
  await expect(dialog).toContainText(
    "You don't have enough credits to process the uploaded images, please add more credits.",
  );
  await ws.screenshot('credits-01-dialog');
  await expect(page).toHaveURL(/\/pricing\/\?source=insufficient_credits/, { timeout: 10_000 });
  await expect(page.getByTestId('credits')).toContainText('0');
  await ws.screenshot('credits-02-pricing');
  await page.goto('/batch-process/');
  await expect(ws.cards()).toHaveCount(0);
  // The upload itself stays on the server for 24 hours and can be used again from the history.
  const history = page.getByTestId('upload-history');
  await expect(history.getByRole('button')).toHaveCount(1);
  await history.getByRole('button').click();
  await expect(ws.card('ready')).toHaveAttribute('data-uid', uid!);
  await expect(history).toHaveCount(0);
});
