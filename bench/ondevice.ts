/**
 * On-device benchmarks (npm run bench ondevice): a 1 MP enlarge 2x (ESRGAN-slim) and a
 * background removal (IS-Net small) in headless Chromium with onnxruntime-web (WASM SIMD; threads
 * as the page is cross-origin isolated), against the server's engine code on onnxruntime-node in
 * the same run, same bytes; then the same on onnxruntime-web's WebGPU provider (SwiftShader's software
 * adapter: headless Chromium here has no GPU). Needs a build (npx vite build).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { startTestServer } from '../tests/support/server.js';
import { HARNESS_FILE, HARNESS_PATH as HARNESS, TEST_PAGES_DIR } from '../tests/support/testPages.js';
import type { BenchRow } from './run.js';

/** The browser globals used inside page.evaluate (this file compiles without DOM types). */
type BrowserGlobal = any;

const root = path.resolve(import.meta.dirname, '..');
const THREADS = Math.min(2, os.cpus().length);

export async function benchOnDevice(): Promise<BenchRow[]> {
  const clientDir = process.env.CLIENT_DIR ?? path.join(root, 'dist');
  if (!fs.existsSync(path.join(clientDir, 'index.html')))
    throw new Error(`no built client in ${clientDir} (run npx vite build)`);
  // The upload harness: the test pages' build (npm run build:test-pages), served by this test server.
  if (!fs.existsSync(path.join(TEST_PAGES_DIR, HARNESS_FILE)))
    throw new Error('no built test pages in dist-test/ (run npm run build:test-pages)');
  // 1000×1000 (1 MP) PNG from a real photo: PNG so both sides decode the very same pixels.
  const png = await sharp(path.join(root, 'tests/fixtures/LadyBird.jpg'))
    .resize(1000, 1000, { fit: 'cover' })
    .png()
    .toBuffer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ondevice-'));
  const file = path.join(tmp, 'one-mp.png');
  fs.writeFileSync(file, png);

  // Server side first (its model files: models/ for our x2 net, the small IS-Net built into a temp dir).
  process.env.ISNET_VARIANT = 'small';
  const { deviceEnlarge2x } = await import('../server/engines/enlarge.js');
  const { foregroundMask } = await import('../server/engines/matting.js');
  const { decodeRgb } = await import('../server/engines/image.js');
  const { defaultParams } = await import('../src/shared/domain/modules.js');
  const img = await decodeRgb(png);
  const modelsDir = path.join(root, 'models');
  // The server's enlarge 2x steps at the default params on the device's net, as the device runs them:
  // settings, pre-denoise, the x2Small net's tiles, detail gain, post-sharpen (without the engine's
  // decode/encode, like the device's ms).
  const serverX2 = (x: typeof img) => deviceEnlarge2x(x, defaultParams('enlarge'), modelsDir, THREADS);
  await serverX2(img); // session warm-up
  let t = performance.now();
  await serverX2(img);
  const serverEnlarge = performance.now() - t;
  await foregroundMask(img, tmp, THREADS);
  t = performance.now();
  await foregroundMask(img, tmp, THREADS);
  const serverMatting = performance.now() - t;

  const srv = await startTestServer({ clientDir }, { testPages: TEST_PAGES_DIR });
  try {
    const wasm = await deviceTimes(srv.url, file, BASE_ARGS);
    const where = `headless Chromium, ${wasm.enlarge.backend}${wasm.isolated ? '' : ' (not isolated)'}; server: onnxruntime-node, ${THREADS} threads`;
    const rows: BenchRow[] = [
      {
        name: 'on-device enlarge 2x, 1 MP',
        value: wasm.enlarge.ms,
        unit: 'ms',
        note: `1000×1000 → ${wasm.enlarge.w}×${wasm.enlarge.h}; ${where}`,
      },
      {
        name: 'server engine enlarge 2x, 1 MP',
        value: serverEnlarge,
        unit: 'ms',
        note: 'our x2 net in tiles with the default settings',
      },
      { name: 'enlarge device/server', value: wasm.enlarge.ms / serverEnlarge, unit: 'x' },
      {
        name: 'on-device enlarge, first call',
        value: wasm.coldEnlarge,
        unit: 'ms',
        note: 'runtime + 1.4 MB model download, session',
      },
      { name: 'on-device matting, 1 MP', value: wasm.matting.ms, unit: 'ms', note: `IS-Net small; ${where}` },
      { name: 'server engine matting, 1 MP', value: serverMatting, unit: 'ms', note: 'foregroundMask, IS-Net small' },
      { name: 'matting device/server', value: wasm.matting.ms / serverMatting, unit: 'x' },
      {
        name: 'on-device matting, first call',
        value: wasm.coldMatting,
        unit: 'ms',
        note: '44 MB model download, session',
      },
    ];
    // WebGPU: SwiftShader's software adapter (no GPU here), so this says whether the WebGPU path runs and
    // what it costs emulated on the CPU, not what a real GPU gives. On a 256×256 crop (1 MP takes the
    // emulated GPU tens of minutes), enlarge only, against the server engine on the same crop. BENCH_WEBGPU=0 skips it.
    if (process.env.BENCH_WEBGPU !== '0') {
      try {
        const small = path.join(tmp, 'small.png');
        const smallPng = await sharp(png).resize(256, 256).png().toBuffer();
        fs.writeFileSync(small, smallPng);
        const smallImg = await decodeRgb(smallPng);
        t = performance.now();
        await serverX2(smallImg);
        const serverSmall = performance.now() - t;
        const wasmSmall = await deviceTimes(srv.url, small, BASE_ARGS, ['enlarge']);
        const gpu = await deviceTimes(srv.url, small, WEBGPU_ARGS, ['enlarge']);
        if (gpu.enlarge.backend !== 'webgpu') throw new Error(`ran on ${gpu.enlarge.backend}, not webgpu`);
        const note = '256×256 → 512×512; headless Chromium, WebGPU on SwiftShader (software adapter on the CPU)';
        rows.push(
          { name: 'on-device enlarge 2x, 256², WebGPU (SwiftShader)', value: gpu.enlarge.ms, unit: 'ms', note },
          {
            name: 'on-device enlarge 2x, 256², WASM',
            value: wasmSmall.enlarge.ms,
            unit: 'ms',
            note: '256×256, same browser flags as above',
          },
          { name: 'server engine enlarge 2x, 256²', value: serverSmall, unit: 'ms' },
          { name: 'enlarge 256² WebGPU/server', value: gpu.enlarge.ms / serverSmall, unit: 'x' },
          { name: 'enlarge 256² WASM/server', value: wasmSmall.enlarge.ms / serverSmall, unit: 'x' },
          {
            name: 'on-device enlarge, WebGPU first call',
            value: gpu.coldEnlarge,
            unit: 'ms',
            note: '26.8 MB runtime, session, shader compiles',
          },
        );
      } catch (e) {
        rows.push({
          name: 'on-device WebGPU',
          value: NaN,
          unit: 'ms',
          note: `not measured: ${e instanceof Error ? e.message : String(e)}`,
        });
      }
    }
    return rows;
  } finally {
    await srv.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** SwiftShader's Vulkan gives headless Chromium a software WebGPU adapter (tests/e2e/review-ondevice-webgpu.spec.ts). */
const WEBGPU_ARGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--use-angle=swiftshader',
  '--disable-background-networking',
  '--no-first-run',
];

interface DeviceRun {
  ms: number;
  w: number;
  h: number;
  backend: string;
}

/** Enlarge and matting in one browser: the first call per feature loads the runtime and model, the second is timed. */
async function deviceTimes(
  url: string,
  file: string,
  args: string[],
  features: ('enlarge' | 'matting')[] = ['enlarge', 'matting'],
) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args });
  try {
    const page = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
    await page.goto(`${url}${HARNESS}?level=guest`);
    await page.locator('main[data-ready="1"]').waitFor();
    const isolated = await page.evaluate(() => (globalThis as BrowserGlobal).crossOriginIsolated as boolean);
    await page.evaluate(() => {
      const input = (globalThis as BrowserGlobal).document.createElement('input');
      input.type = 'file';
      input.id = 'bench-file';
      (globalThis as BrowserGlobal).document.body.append(input);
    });
    await page.setInputFiles('#bench-file', file);
    const run = (feature: 'enlarge' | 'matting'): Promise<DeviceRun> =>
      page.evaluate(async (f) => {
        const g = globalThis as BrowserGlobal;
        const blob = g.document.querySelector('#bench-file').files[0];
        const r = await g.__harness.onDevice(f, blob);
        return { ms: r.ms as number, w: r.w as number, h: r.h as number, backend: r.backend as string };
      }, feature);
    const none: DeviceRun = { ms: NaN, w: 0, h: 0, backend: '' };
    const timed = async (f: 'enlarge' | 'matting') => {
      if (!features.includes(f)) return { cold: NaN, warm: none };
      const t = performance.now();
      await run(f);
      const cold = performance.now() - t;
      return { cold, warm: await run(f) };
    };
    const e = await timed('enlarge');
    const m = await timed('matting');
    return { isolated, enlarge: e.warm, matting: m.warm, coldEnlarge: e.cold, coldMatting: m.cold };
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await benchOnDevice());
}
