// Issue 17: offline, a work waiting for the network is enlarged 2x on the device (onnxruntime-web,
// ESRGAN-slim, the server's tiling) and downloaded; it matches the server engine's output on the
// same bytes (PSNR ≥ 40 dB), computed here with the server's own code on onnxruntime-node.
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { upscaleTiled } from '../../server/engines/esrgan.js';
import { decodeRgb } from '../../server/engines/image.js';
import { deviceOnlyWork, psnr, storedBytes } from './pages/onDevice.js';

test.setTimeout(240_000);
const MODELS_DIR = path.resolve(import.meta.dirname, '../../models');

test('offline: enlarge 2x on the device, downloaded, same as the server (PSNR ≥ 40 dB)', async ({ page, context }) => {
  // The model and the runtime are fetched once while online and kept by the service worker.
  const { ws, card, cid } = await deviceOnlyWork(page, context, '/image-enlarger/', 'First use downloads 15.1 MB once');

  // First use: the model and runtime download once (progress shown), then it runs in the worker.
  const downloadP = page.waitForEvent('download', { timeout: 200_000 });
  await card.getByTestId('process-on-device').click();
  const download = await downloadP;
  expect(download.suggestedFilename()).toBe('chelsea-2x.png');
  const devicePng = await download.path().then((p) => sharp(p).raw().toBuffer({ resolveWithObject: true }));
  expect([devicePng.info.width, devicePng.info.height]).toEqual([902, 600]);
  await ws.screenshot('ondevice-01-enlarged');

  // The server engine on the same stored bytes.
  const bytes = await storedBytes(page, cid);
  const server = await upscaleTiled(await decodeRgb(bytes), 'slim', 2, MODELS_DIR, Math.min(2, os.cpus().length));
  const device = devicePng.info.channels === 3 ? devicePng.data : await sharp(devicePng.data, { raw: devicePng.info }).removeAlpha().raw().toBuffer();
  const db = psnr(device, server.data);
  console.log(`enlarge parity PSNR ${db.toFixed(2)} dB`);
  expect(db).toBeGreaterThanOrEqual(40);

  // Offline now: the model and runtime come from the service worker's cache, it runs again.
  await context.setOffline(true);
  const again = page.waitForEvent('download', { timeout: 200_000 });
  await card.getByTestId('process-on-device').click();
  expect((await again).suggestedFilename()).toBe('chelsea-2x.png');
  await context.setOffline(false);
});
