// Offline, a work waiting for the network is enlarged 2x on the device (onnxruntime-web,
// our x2 net, the server's tiling, and the engine's own pre-denoise, detail gain and post-sharpen
// from src/shared/imaging/enlargeSteps.ts) and downloaded; it matches the server's whole enlarge engine on the
// same bytes and params (PSNR ≥ 40 dB), computed here with the server's code on onnxruntime-node.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import {
  deviceOnlyWork,
  ENLARGE_FIRST_USE,
  psnr,
  rgbBytes,
  runInWorker,
  serverEnlarge2x,
  storedBytes,
} from './pages/onDevice.js';
import { fixture } from './pages/pwaHarness.js';

// the on-device model and the offline run come from the service worker’s cache (the browser project blocks it by default: playwright.config.ts)
test.use({ serviceWorkers: 'allow' });

test.setTimeout(240_000);

test('offline: enlarge 2x on the device at the default params, downloaded, same as the server (PSNR ≥ 40 dB)', async ({
  page,
  context,
}) => {
  // The model and the runtime are fetched once while online and kept by the service worker.
  const { ws, card, cid } = await deviceOnlyWork(page, context, '/image-enlarger/', ENLARGE_FIRST_USE);

  // First use: the model and runtime download once (progress shown), then it runs in the worker.
  const downloadP = page.waitForEvent('download', { timeout: 200_000 });
  await card.getByTestId('process-on-device').click();
  const download = await downloadP;
  expect(download.suggestedFilename()).toBe('chelsea-2x.png');
  const devicePng = await download.path().then((p) => sharp(p).raw().toBuffer({ resolveWithObject: true }));
  expect([devicePng.info.width, devicePng.info.height]).toEqual([902, 600]);
  await ws.screenshot('ondevice-01-enlarged');

  // The server's whole engine on the same stored bytes with the page's default params
  // (suppress_noise 75, remove_blur 75: pre-denoise and post-sharpen both run).
  const bytes = await storedBytes(page, cid);
  const server = await serverEnlarge2x(bytes);
  const device =
    devicePng.info.channels === 3
      ? devicePng.data
      : await sharp(devicePng.data, { raw: devicePng.info }).removeAlpha().raw().toBuffer();
  const db = psnr(device, server);
  console.log(`enlarge parity (75/75) PSNR ${db.toFixed(2)} dB`);
  expect(db).toBeGreaterThanOrEqual(40);
  // Not a pass-through: the steps change the picture, so a device running only the network would fail here.
  const tilesOnly = await serverEnlarge2x(bytes, { suppress_noise: 0, remove_blur: 0 });
  const plain = psnr(device, tilesOnly);
  console.log(`device (75/75) vs server without denoise/sharpen: ${plain.toFixed(2)} dB`);
  expect(plain).toBeLessThan(db - 5);

  // Offline now: the model and runtime come from the service worker's cache, it runs again.
  await context.setOffline(true);
  const again = page.waitForEvent('download', { timeout: 200_000 });
  await card.getByTestId('process-on-device').click();
  expect((await again).suggestedFilename()).toBe('chelsea-2x.png');
  await context.setOffline(false);
});

test('enlarge 2x on the device with autoparams on a noisy photo decides the same denoise/deblur as the server (PSNR ≥ 40 dB)', async ({
  page,
}) => {
  // rocket.jpg with σ=12 grain added: autoparams read noise and focus blur and pick non-zero strengths.
  const base = sharp(readFileSync(fixture('rocket.jpg')))
    .removeAlpha()
    .resize(400);
  const { data, info } = await base.raw().toBuffer({ resolveWithObject: true });
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
  for (let i = 0; i < data.length; i += 2) {
    const m = Math.sqrt(-2 * Math.log(rnd() || 1e-9)) * 12,
      a = 2 * Math.PI * rnd();
    data[i] = Math.max(0, Math.min(255, Math.round(data[i]! + m * Math.cos(a))));
    if (i + 1 < data.length) data[i + 1] = Math.max(0, Math.min(255, Math.round(data[i + 1]! + m * Math.sin(a))));
  }
  const noisy = await sharp(data, { raw: info }).png().toBuffer();
  const file = test.info().outputPath('noisy-rocket.png');
  await sharp(noisy).toFile(file);

  const picked = { autoparams: true, suppress_noise: 0, remove_blur: 0 };
  const r = await runInWorker(page, 'enlarge', file, { enlarge: picked });
  const device = await rgbBytes(r.png);
  expect([device.info.width, device.info.height]).toEqual([info.width * 2, info.height * 2]);
  const server = await serverEnlarge2x(noisy, picked);
  const db = psnr(device.data, server);
  console.log(`enlarge parity (autoparams, noisy) PSNR ${db.toFixed(2)} dB`);
  expect(db).toBeGreaterThanOrEqual(40);
  // autoparams did act: the result differs clearly from the network alone.
  const plain = psnr(device.data, await serverEnlarge2x(noisy, { suppress_noise: 0, remove_blur: 0 }));
  console.log(`device (autoparams) vs server without denoise/sharpen: ${plain.toFixed(2)} dB`);
  expect(plain).toBeLessThan(db - 5);
});
