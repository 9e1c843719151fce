// "Process on this device" for online users. With the choice on, a dropped photo is kept in
// the browser (never uploaded), Start runs it in the image worker, it finishes in Processed like a server
// result, is free (credits unchanged), downloads the right file, and the choice and the result survive a
// reload. Features the device cannot run say so. Request listening proves nothing was sent.
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { OWN_NET_FILES } from '../../src/shared/imaging/netFiles.js';
import { DeviceChoicePanel } from './pages/deviceChoice.js';
import { ENLARGE_FIRST_USE } from './pages/onDevice.js';
import { Workspace } from './pages/workspace.js';

test.setTimeout(240_000);
// Without the service worker every request shows as the page's own (nothing answered from a cache unseen).
test.use({ serviceWorkers: 'block' });

test.beforeEach(async ({ context, baseURL }) => {
  await context.addCookies([{ name: 'isFirstVisit', value: '1', url: baseURL! }]);
});

async function startSelected(ws: Workspace, card: ReturnType<Workspace['card']>) {
  await card.locator('.work-check').check();
  await ws.startButton().click();
}

test('enlarge 2x on this device: nothing uploaded, free, in Processed, downloads, remembered after a reload', async ({
  page,
}) => {
  const sent = DeviceChoicePanel.record(page);
  const ws = new Workspace(page);
  const choice = new DeviceChoicePanel(page);
  await ws.openFeaturePage('/image-enlarger/');
  await expect(page.getByTestId('credits')).toContainText('3');
  await expect(choice.toggle()).not.toBeChecked();
  await choice.turnOn();
  // Before the first use: free, the guest limits, and the download size on this device (WASM: 0.9 + 14.2 MB).
  await expect(choice.note()).toContainText('Free, no credits');
  await expect(choice.note()).toContainText(`${ENLARGE_FIRST_USE}.`);
  await ws.screenshot('ondevice-choice-01-on');

  await ws.upload('chelsea.png');
  const ready = ws.card('ready');
  await expect(ready).toHaveCount(1, { timeout: 60_000 });
  await expect(ready.getByTestId('on-device-badge')).toBeVisible();
  await ready.locator('.work-check').check();
  await expect(page.getByTestId('start-note')).toHaveText('Runs on this device: free, no credits used.');
  await ws.startButton().click();

  await ws.tab('processed').click();
  const done = ws.card('finished');
  await expect(done).toHaveCount(1, { timeout: 200_000 });
  await expect(done.getByTestId('output-size')).toHaveText('902×600');
  // Free: the server was never asked, the guest's three credits are untouched.
  await expect(page.getByTestId('credits')).toContainText('3');

  const downloadP = page.waitForEvent('download');
  await done.getByTestId('download').click();
  const download = await downloadP;
  expect(download.suggestedFilename()).toBe('chelsea-2x.png');
  const meta = await sharp(await download.path()).metadata();
  expect([meta.width, meta.height, meta.format]).toEqual([902, 600, 'png']);

  await done.getByTestId('preview').click();
  await expect(page.getByTestId('preview-dialog')).toBeVisible();
  await expect(page.getByTestId('preview-dialog').locator('img').first()).toHaveJSProperty('complete', true);
  await ws.screenshot('ondevice-choice-02-preview');
  await page.keyboard.press('Escape');

  // The model came from /models/ through the worker: the listener hears the worker's requests too,
  // so the absence of uploads, transform and progress below is a real absence.
  expect(sent.paths).toContain(`/models/${OWN_NET_FILES.x2Small}`);
  expect(sent.serverWork()).toEqual([]);

  // Reload: the choice is remembered, the result is still here and still downloads.
  await page.reload();
  await page.getByTestId('open-workspace').click();
  await expect(choice.toggle()).toBeChecked();
  await ws.tab('processed').click();
  const again = ws.card('finished');
  await expect(again).toHaveCount(1);
  const secondP = page.waitForEvent('download');
  await again.getByTestId('download').click();
  const second = await secondP;
  expect(second.suggestedFilename()).toBe('chelsea-2x.png');
  expect((await sharp(await second.path()).metadata()).width).toBe(902);
  expect(sent.serverWork()).toEqual([]);
});

test('compress on this device: same size, smaller file, nothing uploaded; other features say they need the server', async ({
  page,
}) => {
  const sent = DeviceChoicePanel.record(page);
  const ws = new Workspace(page);
  const choice = new DeviceChoicePanel(page);
  await ws.openFeaturePage('/image-compressor/');
  await choice.turnOn();
  await expect(choice.note()).not.toContainText('First use downloads');
  await ws.upload('LadyBird.jpg');
  const ready = ws.card('ready');
  await expect(ready).toHaveCount(1, { timeout: 60_000 });
  const [w, h] = (await ready.getByTestId('source-size').innerText())
    .match(/(\d+)×(\d+)/)!
    .slice(1)
    .map(Number);

  // A feature the device cannot run: the panel says so, and Start explains instead of uploading.
  await ws.chooseFeature('colorize');
  await expect(page.getByTestId('device-choice-server-only')).toBeVisible();
  await startSelected(ws, ready);
  await expect(ws.messageDialog()).toContainText('Turn off "Process on this device"');
  await ws.screenshot('ondevice-choice-03-server-only');
  await ws.messageDialog().getByRole('button').first().click();
  await expect(ws.card('ready')).toHaveCount(1);

  await ws.chooseFeature('compress');
  await ws.startButton().click();
  await ws.tab('processed').click();
  const done = ws.card('finished');
  await expect(done).toHaveCount(1, { timeout: 60_000 });
  const downloadP = page.waitForEvent('download');
  await done.getByTestId('download').click();
  const file = await (await downloadP).path();
  const meta = await sharp(file).metadata();
  expect([meta.width, meta.height, meta.format]).toEqual([w, h, 'jpeg']);
  const stored = await page.evaluate(
    (cid) =>
      new Promise<number[]>((resolve) => {
        const open = indexedDB.open('pixmill');
        open.onsuccess = () => {
          const get = open.result.transaction('uploads').objectStore('uploads').get(cid);
          get.onsuccess = () => resolve([get.result.bytes.size, get.result.result.size]);
        };
      }),
    (await done.getAttribute('data-cid'))!,
  );
  expect(stored[1]).toBeLessThan(stored[0]);
  expect(sent.serverWork()).toEqual([]);
});

test.describe('375 px, in German', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true });

  test('the choice fits a phone and is translated; a kept work is processed there', async ({ page }) => {
    const ws = new Workspace(page);
    const choice = new DeviceChoicePanel(page);
    await ws.openFeaturePage('/image-compressor/', '/de');
    await choice.turnOn();
    await expect(page.getByTestId('device-choice')).toContainText('Auf diesem Gerät verarbeiten');
    await expect(choice.note()).toContainText('Kostenlos, ohne Credits');
    await ws.upload('coffee.png');
    const ready = ws.card('ready');
    await expect(ready).toHaveCount(1, { timeout: 60_000 });
    await expect(ready.getByTestId('on-device-badge')).toHaveText('Auf diesem Gerät');
    await ready.locator('.work-check').check();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.getByTestId('device-choice').scrollIntoViewIfNeeded();
    await ws.screenshot('ondevice-choice-04-mobile-de');
    await ws.startButton().click();
    await ws.tab('processed').click();
    await expect(ws.card('finished')).toHaveCount(1, { timeout: 60_000 });
  });
});
