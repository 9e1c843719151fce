// The background editor has an erase/restore brush for the cut-out's edge.
import { expect, test } from '@playwright/test';
import { EditorPage } from './pages/editor.js';
import { Workspace } from './pages/workspace.js';

test('erase clears the cut-out where it paints, restore brings the photo back there', async ({
  page,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
  await page.setViewportSize({ width: 1366, height: 900 });
  const ws = new Workspace(page);
  await ws.open();
  await ws.chooseFeature('matting');
  await ws.processFirstSample();
  await ws.tab('processed').click();
  await expect(ws.card('finished')).toHaveCount(1, { timeout: 30_000 });
  await ws.card('finished').getByTestId('edit').click();
  const ed = new EditorPage(page);
  await ed.ready();
  const before = await ed.centrePixel();
  expect(before[3]).toBeGreaterThan(0); // the subject is at the centre of the sample cut-out
  await page.getByTestId('brush-erase').click();
  await ed.strokeAcrossMiddle();
  expect((await ed.centrePixel())[3]).toBe(0);
  await page.screenshot({ path: 'bench/results/ui-screens/16-editor-erase-1366.png' });
  await expect(page.getByTestId('brush-restore')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('brush-restore').click();
  await ed.strokeAcrossMiddle(0.1);
  expect((await ed.centrePixel())[3]).toBe(255);
  await page.getByTestId('brush-reset').click();
  await expect.poll(() => ed.centrePixel()).toEqual(before);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: 'bench/results/ui-screens/16-editor-375.png', fullPage: true });
});
