// Bulk download (switched off by default, spec §6). Against the default build it checks the switched-off
// state (no "Download all"; the single result downloads); against a build with VITE_BULK_DOWNLOAD=1
// (e.g. `VITE_BULK_DOWNLOAD=1 npx vite build --outDir .tmp/dist-bulk` and CLIENT_DIR=.tmp/dist-bulk) the bulk flow:
// Point check 200 → the zip of all results; 30004 → the not-enough-points popup → pricing.
import { expect, test } from '@playwright/test';
import { Workspace } from './pages/workspace.js';

test('download all: zip when credits are left, 30004 popup to pricing when none are', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  const ws = new Workspace(page);
  await ws.open();
  await ws.chooseFeature('compress');
  await ws.upload('chelsea.png');
  await expect(ws.card('ready')).toHaveCount(1, { timeout: 60_000 });
  const uid = (await ws.card('ready').getAttribute('data-uid'))!;
  await ws.card('ready').locator('input[type=checkbox]').check();
  await ws.startButton().click();
  await expect(ws.tab('processing')).toHaveAttribute('aria-selected', 'true');
  await ws.tab('processed').click();
  await expect(ws.card('finished')).toHaveCount(1, { timeout: 90_000 });
  const downloadAll = page.getByRole('button', { name: 'Download all' });
  if ((await downloadAll.count()) === 0) {
    // The default build (spec §6: switched off): no bulk button, and the result still downloads on its own.
    await expect(downloadAll).toHaveCount(0);
    const [one] = await Promise.all([
      page.waitForEvent('download'),
      ws.card('finished').getByTestId('download').click(),
    ]);
    expect(one.suggestedFilename()).toMatch(/chelsea.*\.(png|jpe?g)$/i);
    return;
  }

  const [zip] = await Promise.all([page.waitForEvent('download'), downloadAll.click()]);
  expect(zip.suggestedFilename()).toMatch(/\.zip$/);

  // Spend the guest's 3 credits on the server, then the point check answers 30004.
  const token = (await context.cookies()).find((c) => c.name === 'user_token')!.value;
  for (let i = 0; i < 3; i++) {
    const body = await (
      await page.request.post('/web_api/v1/transform', {
        form: { uid, user_token: token, jconfig: JSON.stringify({ job: 'denoise' }) },
      })
    ).json();
    expect(body.code).toBe(200);
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
  await downloadAll.click();
  const popup = page.getByTestId('points-dialog');
  await expect(popup).toBeVisible();
  await new Workspace(page).screenshot('bulk-01-30004');
  await page.getByTestId('points-confirm').click();
  await expect(page).toHaveURL(/\/pricing\/\?source=add_credits_popup$/);
});
