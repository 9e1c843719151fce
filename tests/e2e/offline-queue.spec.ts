// Photos dropped while offline are fitted, thumbnailed and stored on the device, shown as
// "waiting for network", survive a reload, and upload by themselves when the connection returns.
import { expect, test } from '@playwright/test';
import { admin, AuthPage, uniqueEmail } from './pages/account.js';
import { controlledBySw, storedQueue } from './pages/offline.js';
import { Workspace } from './pages/workspace.js';

// the offline queue and Background Sync run through the service worker (the browser project blocks it by default: playwright.config.ts)
test.use({ serviceWorkers: 'allow' });

test.setTimeout(240_000);

test('offline drop → waiting for network → reload keeps them → online uploads them without a click', async ({
  page,
  context,
}) => {
  const email = uniqueEmail('offline-q');
  await new AuthPage(page).register(email, 'offline1234');
  await expect(page).toHaveURL(/\/batch-process\/$/, { timeout: 30_000 });
  await admin(email, 'grant', email, 'pro');

  const ws = new Workspace(page);
  await page.goto('/image-compressor/');
  await controlledBySw(page);
  await expect(page.getByTestId('credits')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('open-workspace').click();
  await expect(page.getByTestId('file-input').first()).toBeAttached();

  await context.setOffline(true);
  await ws.drop('rocket.jpg', 'chelsea.png');
  const waiting = ws.card('waitingForNetwork');
  await expect(waiting).toHaveCount(2, { timeout: 60_000 });
  await expect(waiting.first()).toContainText('Waiting for network');
  // Fitted bytes and thumbnail stored locally; nothing reached the server.
  const queued = await storedQueue(page);
  expect(queued.map((q) => q.filename)).toEqual(['rocket.jpg', 'chelsea.png']);
  await expect(waiting.locator('.work-thumb img')).toHaveCount(2);
  await ws.screenshot('offline-queue-01-waiting');

  // The app started again while offline (its workspace page, served by the service worker): nothing is lost.
  await page.goto('/batch-process/');
  await expect(page.getByTestId('pwa-offline')).toBeVisible();
  await expect(ws.card('waitingForNetwork')).toHaveCount(2, { timeout: 30_000 });
  expect((await storedQueue(page)).map((q) => q.filename)).toEqual(['rocket.jpg', 'chelsea.png']);

  // The network returns: both upload and become ready, no click.
  await context.setOffline(false);
  await expect(ws.card('ready')).toHaveCount(2, { timeout: 90_000 });
  const uids = await ws.card('ready').evaluateAll((els) => els.map((e) => e.getAttribute('data-uid')));
  expect(uids.every((u) => !!u)).toBe(true);
  await expect.poll(() => storedQueue(page)).toEqual([]);
  await ws.screenshot('offline-queue-02-uploaded');

  // The server holds them (its own list for this account).
  const onServer = await page.evaluate(async () => {
    const token = document.cookie.match(/(?:^|; )user_token=([^;]+)/)?.[1] ?? '';
    const body = new URLSearchParams({ user_token: decodeURIComponent(token), limit: '100' });
    const env = await (await fetch('/web_api/v1/upload/list', { method: 'POST', body })).json();
    return (env.data.datas as { uid: string }[]).map((d) => d.uid);
  });
  expect(onServer).toEqual(expect.arrayContaining(uids));
});
