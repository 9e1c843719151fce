// Where WebGPU gives no adapter (the suite's Chromium runs with --disable-gpu), the on-device
// models run on onnxruntime-web's WASM provider, the worker logs why, and the result is still right.
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { catFace, runInWorker } from './pages/onDevice.js';

test.setTimeout(240_000);
test.use({ serviceWorkers: 'block' });

test('without a WebGPU adapter (--disable-gpu) the models run on WASM and the log says why', async ({ page }) => {
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  // the cat's face, 120×80: the provider and its log are what is checked here (the whole photo's parity on
  // WASM is ondevice-enlarge.spec.ts's), and one tile costs a few seconds instead of ten
  const face = await catFace();
  const r = await runInWorker(page, 'enlarge', face.file);
  face.remove();
  expect(r.backend).toMatch(/^wasm-simd/);
  expect(logs.find((l) => l.startsWith('on-device models run on wasm:'))).toMatch(/no adapter|navigator\.gpu missing/);
  const meta = await sharp(r.png).metadata();
  expect([meta.width, meta.height]).toEqual([240, 160]);
});
