// The on-device models run on onnxruntime-web's WebGPU provider when the browser gives an
// adapter, on WASM otherwise (with the reason logged). Headless Chromium here has no GPU, but with
// --enable-unsafe-webgpu and SwiftShader's Vulkan it gives a software WebGPU adapter: the enlarge 2x then
// runs on WebGPU and must still match the server engine (PSNR ≥ 40 dB). This file launches its own
// Chromium for that (the global config keeps --disable-gpu for everyone).
// Background removal on WebGPU was checked here too, but SwiftShader took 354 s for its fixed 1024² input
// (a quarter of the whole browser suite's time on two workers); the provider and session path it took is
// the one the enlarge takes, and its WASM parity with the server stays in ondevice-matting.spec.ts.
// Review suite only (`npm run test:review`): SwiftShader spends about two minutes of a core on this one
// 120×80 enlarge, a tenth of the gate's browser time; the gate checks the same on-device enlarge on WASM
// (ondevice-enlarge.spec.ts) and that a missing adapter falls back with its reason (ondevice-wasm-fallback).
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { catFace, psnr, runInWorker, serverEnlarge2x } from './pages/onDevice.js';

// Software WebGPU runs beside the other browser worker: the 120×80 enlarge took 2.6 min on a loaded machine.
test.setTimeout(480_000);

/** SwiftShader's software WebGPU adapter in headless Chromium (no GPU on this machine). */
const WEBGPU_ARGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--use-angle=swiftshader',
];

test.use({ serviceWorkers: 'block', launchOptions: { executablePath: '/usr/bin/chromium', args: WEBGPU_ARGS } });

test('enlarge 2x runs on WebGPU and matches the server (PSNR ≥ 40 dB)', async ({ page }) => {
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  // the cat's face, 120×80: software WebGPU takes ~1.4 ms per input pixel (the whole 451×300 photo:
  // 3 min of the CI run; 240×160 still ran past the test's 5 min on a loaded machine beside another
  // browser test); the picture is one tile at x2 either way, so the path tested is the same
  const face = await catFace();
  const r = await runInWorker(page, 'enlarge', face.file);
  expect(logs.find((l) => l.startsWith('on-device models run on'))).toMatch(
    /^on-device models run on webgpu: WebGPU adapter: google swiftshader/,
  );
  expect(logs.some((l) => l.includes('fall back to wasm'))).toBe(false);
  expect(r.backend).toBe('webgpu');
  const device = await sharp(r.png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  expect([device.info.width, device.info.height]).toEqual([240, 160]);
  // the server's whole engine at the default params (pre-denoise, x2, back-projection, post-sharpen)
  const server = await serverEnlarge2x(face.bytes);
  face.remove();
  const db = psnr(device.data, server);
  console.log(`WebGPU enlarge parity PSNR ${db.toFixed(2)} dB (${r.ms.toFixed(0)} ms)`);
  expect(db).toBeGreaterThanOrEqual(40);
});
