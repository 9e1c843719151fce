// Where WebGPU gives no adapter (the suite's Chromium runs with --disable-gpu), the on-device
// models run on onnxruntime-web's WASM provider, the worker logs why, and the result is still right.
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { runInWorker } from './pages/onDevice.js';
import { fixture } from './pages/pwaHarness.js';

test.setTimeout(240_000);
test.use({ serviceWorkers: 'block' });

test('without a WebGPU adapter (--disable-gpu) the models run on WASM and the log says why', async ({ page }) => {
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  const r = await runInWorker(page, 'enlarge', fixture('chelsea.png'));
  expect(r.backend).toMatch(/^wasm-simd/);
  expect(logs.find((l) => l.startsWith('on-device models run on wasm:'))).toMatch(/no adapter|navigator\.gpu missing/);
  expect((await sharp(r.png).metadata()).width).toBe(902);
});
