// Offline, "Process on this device" is offered only when its model is already on the
// device; otherwise the card says the one-time download needs the network (it offered 58.6 MB it could not fetch).
import { expect, test } from '@playwright/test';
import { controlledBySw } from './pages/offline.js';
import { Workspace } from './pages/workspace.js';

// offline, the page is served by the service worker (the browser project blocks it by default: playwright.config.ts)
test.use({ serviceWorkers: 'allow' });

test('offline without the model cached: no on-device button, the card says what it needs', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/remove-background/');
  await controlledBySw(page);
  await expect(page.getByTestId('credits')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('open-workspace').click();
  await expect(page.getByTestId('file-input').first()).toBeAttached();
  await context.setOffline(true);
  const ws = new Workspace(page);
  await ws.upload('chelsea.png');
  const card = ws.card('waitingForNetwork');
  await expect(card).toHaveCount(1, { timeout: 60_000 });
  await expect(card.getByTestId('on-device')).toHaveAttribute('data-phase', 'needs-online');
  await expect(card.getByTestId('on-device')).toContainText('MB download');
  await expect(card.getByTestId('process-on-device')).toHaveCount(0);
  await page.screenshot({ path: 'bench/results/ui-screens/17-offline-ondevice-needs-online-1366.png' });
  await context.setOffline(false);
});
