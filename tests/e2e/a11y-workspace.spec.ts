// Issue 50 point 9: the workspace has no WCAG 2.1 A/AA violation (axe-core) with a card in it, with its
// settings panel open, with the preview open, and with each dialog a guest meets open (upgrade,
// message, confirm, the Basic/Pro compare).
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { Workspace } from './pages/workspace.js';
import { consoleErrors, expectNoAxeViolations } from './pages/accessibility.js';

test('workspace with a card, its settings, the preview and every dialog: no axe violation', async ({
  page,
  context,
  baseURL,
}, info) => {
  test.setTimeout(120_000);
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  const errors = consoleErrors(page);
  const ws = new Workspace(page);
  await ws.open();
  await expectNoAxeViolations(page, 'empty workspace');

  // Subscriber-only scale in the settings asks a guest to upgrade.
  await ws.chooseFeature('enlarge');
  const settings = page.locator('.settings-toggle').first();
  if ((await settings.getAttribute('aria-expanded')) !== 'true') await settings.click();
  await expect(page.getByTestId('scale-4')).toBeVisible();
  await expectNoAxeViolations(page, 'settings panel');
  await page.getByTestId('scale-4').click();
  await expect(page.getByTestId('upgrade-dialog')).toBeVisible();
  await expectNoAxeViolations(page, 'upgrade dialog');
  await page.getByTestId('modal-close').click();
  await expect(page.getByTestId('upgrade-dialog')).toHaveCount(0);

  // A card (a sample), processed, and its preview.
  await ws.chooseFeature('denoise');
  await page.getByTestId('upload-tab-sample').click();
  await page.getByTestId('sample').first().click();
  await expect(ws.card('ready')).toHaveCount(1);
  await expectNoAxeViolations(page, 'workspace with a card');
  await page.getByTestId('tab-workflow').click();
  await expectNoAxeViolations(page, 'workflow tab');
  await page.getByTestId('tab-feature').click();
  await ws.card('ready').locator('input[type=checkbox]').check();
  await ws.startButton().click();
  await ws.tab('processed').click();
  await expect(ws.card('finished')).toHaveCount(1, { timeout: 30_000 });
  await expectNoAxeViolations(page, 'workspace with a processed card');
  await ws.card('finished').getByTestId('preview').click();
  await expect
    .poll(() => page.getByTestId('img-after').evaluate((i) => (i as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
  await expectNoAxeViolations(page, 'preview dialog');
  await page.getByTestId('modal-close').click();

  // Delete asks first.
  await ws.card('finished').getByTestId('delete').click();
  await expect(page.getByTestId('confirm-dialog')).toBeVisible();
  await expectNoAxeViolations(page, 'confirm dialog');
  await page.getByTestId('confirm-cancel').click();

  // A refused file: the message dialog.
  await ws.tab('uploaded').click();
  const txt = info.outputPath('notes.txt');
  fs.writeFileSync(txt, 'hello');
  await page.getByTestId('file-input').first().setInputFiles(txt);
  await expect(page.getByTestId('message-dialog')).toBeVisible();
  await expectNoAxeViolations(page, 'message dialog');
  await page.getByTestId('message-dialog').getByRole('button', { name: 'OK' }).click();

  // The upload page's Basic/Pro compare.
  await ws.open('/upload/');
  await page.getByTestId('open-compare').click();
  const compare = page.getByTestId('compare-dialog');
  await expect
    .poll(() =>
      compare
        .locator('img')
        .nth(2)
        .evaluate((i) => (i as HTMLImageElement).naturalWidth),
    )
    .toBeGreaterThan(0);
  await expectNoAxeViolations(page, 'compare dialog');
  expect(errors).toEqual([]);
});
