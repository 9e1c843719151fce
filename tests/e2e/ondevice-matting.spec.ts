// Background removal on the device (onnxruntime-web, IS-Net small) downloads a PNG with
// alpha at full size, matching the server engine run with the same model (ISNET_VARIANT=small) on
// the same bytes. Running it again offline from the service worker's cache is what the enlarge's offline
// test (ondevice-enlarge.spec.ts) checks for the on-device models; a second IS-Net run here cost ~30 s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { deviceOnlyWork, psnr, storedBytes } from './pages/onDevice.js';

// the on-device model comes from the service worker’s cache (the browser project blocks it by default: playwright.config.ts)
test.use({ serviceWorkers: 'allow' });

test.setTimeout(300_000);

test('background removal on the device: PNG with alpha, same as the server engine (PSNR ≈ 40 dB)', async ({
  page,
  context,
}) => {
  const { ws, card, cid } = await deviceOnlyWork(
    page,
    context,
    '/remove-background/',
    'First use downloads 58.6 MB once',
  );

  const first = page.waitForEvent('download', { timeout: 280_000 });
  await card.getByTestId('process-on-device').click();
  const download = await first;
  expect(download.suggestedFilename()).toBe('chelsea-cutout.png');
  const device = await sharp(await download.path())
    .raw()
    .toBuffer({ resolveWithObject: true });
  expect([device.info.width, device.info.height, device.info.channels]).toEqual([451, 300, 4]);
  const alphaOf = (px: Buffer) => Uint8Array.from({ length: px.length / 4 }, (_, i) => px[i * 4 + 3]!);
  const a = alphaOf(device.data);
  // A real cut-out: some see-through and some solid pixels.
  expect(a.filter((v) => v === 0).length).toBeGreaterThan(1000);
  expect(a.filter((v) => v === 255).length).toBeGreaterThan(1000);
  await ws.screenshot('ondevice-02-matting');

  // The server engine with the small model (what ISNET_VARIANT=small builds) on the same bytes.
  const bytes = await storedBytes(page, cid);
  const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'isnet-small-'));
  process.env.ISNET_VARIANT = 'small';
  const { foregroundMask, rgba } = await import('../../server/engines/matting.js');
  const { decodeRgb } = await import('../../server/engines/image.js');
  const { decontaminate } = await import('../../src/shared/imaging/matte.js');
  const img = await decodeRgb(bytes);
  // the engine's own output: mask (solid interior included) and decontaminated edge colours
  const alpha = await foregroundMask(img, modelsDir, Math.min(2, os.cpus().length));
  const server = rgba(decontaminate(img, alpha), alpha);
  fs.rmSync(modelsDir, { recursive: true, force: true });
  const alphaDb = psnr(a, alphaOf(Buffer.from(server.data)));
  const rgbaDb = psnr(device.data, server.data);
  console.log(`matting parity PSNR alpha ${alphaDb.toFixed(2)} dB, RGBA ${rgbaDb.toFixed(2)} dB`);
  // The output (RGBA) meets the required ≥ 40 dB (measured 40.87). Alpha alone measured 37.25 dB: the
  // quint8 model's int8 kernels differ between ort-web WASM and ort-node CPU, and the decisive matte and
  // the solid-interior step (src/shared/imaging/isnetMask.ts, matte.ts) steepen mid alphas (×1.42 between
  // the net's sure levels), which magnifies those small mask differences where the edge is soft; where
  // the net is sure both sides now give exactly 0 or 255 (before the decisive matte: 38.9 dB, RGBA 40.5).
  expect(alphaDb).toBeGreaterThanOrEqual(36.5);
  expect(rgbaDb).toBeGreaterThanOrEqual(40);
});
