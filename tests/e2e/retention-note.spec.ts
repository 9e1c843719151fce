// The works list tells how long the server keeps uploads and results for the caller's plan.
import { expect, test } from '@playwright/test';
import { Workspace } from './pages/workspace.js';

test('a guest sees that works are kept 7 days, in English and German', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  const ws = new Workspace(page);
  await ws.open('/batch-process/');
  await ws.upload('rocket.jpg');
  await expect(ws.card('ready')).toHaveCount(1, { timeout: 90_000 });
  await expect(page.getByTestId('retention-note')).toHaveText('Uploads and results are kept for 7 days, then deleted.');

  await ws.open('/de/batch-process/');
  await ws.upload('chelsea.png');
  // the rocket work may be on the list too (once the workspace has saved it, it comes back on this page)
  await expect(ws.card('ready').filter({ hasText: 'chelsea.png' })).toHaveCount(1, { timeout: 90_000 });
  await expect(page.getByTestId('retention-note')).toHaveText(
    'Uploads und Ergebnisse werden 7 Tage aufbewahrt und danach gelöscht.',
  );
});
