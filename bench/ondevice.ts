/**
 * On-device benchmarks (npm run bench ondevice, issue 17): a 1 MP enlarge 2x (ESRGAN-slim) and a
 * background removal (IS-Net small) in headless Chromium with onnxruntime-web (WASM SIMD; threads
 * as the page is cross-origin isolated), against the server's engine code on onnxruntime-node in
 * the same run, same bytes. Needs a build (npx vite build).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { startTestServer } from '../server/testing/server.js';

/** The browser globals used inside page.evaluate (this file compiles without DOM types). */
type BrowserGlobal = any;

interface Row {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

const root = path.resolve(import.meta.dirname, '..');
const HARNESS = '/src/pwa/harness/upload-harness.html';
const THREADS = Math.min(2, os.cpus().length);

export async function benchOnDevice(): Promise<Row[]> {
  const clientDir = process.env.CLIENT_DIR ?? path.join(root, 'dist');
  if (!fs.existsSync(path.join(clientDir, HARNESS))) throw new Error(`no built client in ${clientDir} (run npx vite build)`);
  // 1000×1000 (1 MP) PNG from a real photo: PNG so both sides decode the very same pixels.
  const png = await sharp(path.join(root, 'tests/fixtures/LadyBird.jpg')).resize(1000, 1000, { fit: 'cover' }).png().toBuffer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ondevice-'));
  const file = path.join(tmp, 'one-mp.png');
  fs.writeFileSync(file, png);

  // Server side first (its model files: models/ for ESRGAN, the small IS-Net built into a temp dir).
  process.env.ISNET_VARIANT = 'small';
  const { upscaleTiled } = await import('../server/engines/esrgan.js');
  const { foregroundMask } = await import('../server/engines/matting.js');
  const { decodeRgb } = await import('../server/engines/image.js');
  const img = await decodeRgb(png);
  const modelsDir = path.join(root, 'models');
  await upscaleTiled(img, 'slim', 2, modelsDir, THREADS); // session warm-up
  let t = performance.now();
  await upscaleTiled(img, 'slim', 2, modelsDir, THREADS);
  const serverEnlarge = performance.now() - t;
  await foregroundMask(img, tmp, THREADS);
  t = performance.now();
  await foregroundMask(img, tmp, THREADS);
  const serverMatting = performance.now() - t;

  const srv = await startTestServer({ clientDir });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
    await page.goto(`${srv.url}${HARNESS}?level=guest`);
    await page.locator('main[data-ready="1"]').waitFor();
    const isolated = await page.evaluate(() => (globalThis as BrowserGlobal).crossOriginIsolated as boolean);
    await page.evaluate(() => {
      const input = (globalThis as BrowserGlobal).document.createElement('input');
      input.type = 'file';
      input.id = 'bench-file';
      (globalThis as BrowserGlobal).document.body.append(input);
    });
    await page.setInputFiles('#bench-file', file);
    // First call per feature downloads the model and builds the session; the second is timed.
    const run = (feature: 'enlarge' | 'matting') =>
      page.evaluate(async (f) => {
        const g = globalThis as BrowserGlobal;
        const blob = g.document.querySelector('#bench-file').files[0];
        const r = await g.__harness.onDevice(f, blob);
        return { ms: r.ms as number, w: r.w as number, h: r.h as number, backend: r.backend as string };
      }, feature);
    t = performance.now();
    await run('enlarge');
    const coldEnlarge = performance.now() - t;
    const enlarge = await run('enlarge');
    t = performance.now();
    await run('matting');
    const coldMatting = performance.now() - t;
    const matting = await run('matting');
    const where = `headless Chromium, ${enlarge.backend}${isolated ? '' : ' (not isolated)'}; server: onnxruntime-node, ${THREADS} threads`;
    return [
      { name: 'on-device enlarge 2x, 1 MP', value: enlarge.ms, unit: 'ms', note: `1000×1000 → ${enlarge.w}×${enlarge.h}; ${where}` },
      { name: 'server engine enlarge 2x, 1 MP', value: serverEnlarge, unit: 'ms', note: 'upscaleTiled, ESRGAN-slim x2' },
      { name: 'enlarge device/server', value: enlarge.ms / serverEnlarge, unit: 'x' },
      { name: 'on-device enlarge, first call', value: coldEnlarge, unit: 'ms', note: 'runtime + 0.9 MB model download, session' },
      { name: 'on-device matting, 1 MP', value: matting.ms, unit: 'ms', note: `IS-Net small; ${where}` },
      { name: 'server engine matting, 1 MP', value: serverMatting, unit: 'ms', note: 'foregroundMask, IS-Net small' },
      { name: 'matting device/server', value: matting.ms / serverMatting, unit: 'x' },
      { name: 'on-device matting, first call', value: coldMatting, unit: 'ms', note: '44 MB model download, session' },
    ];
  } finally {
    await browser.close();
    await srv.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await benchOnDevice());
}
