/** Helpers for on-device processing checks: the server's engine on the same bytes, PSNR. */
import { MODEL_BYTES, RUNTIME_BYTES } from '../../../src/shared/onDeviceModels.js';
import { OWN_NETS } from '../../../src/shared/imaging/netFiles.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { defaultParams, type ParamsOf } from '../../../src/shared/domain/modules.js';
import type { OnDeviceOptions } from '../../../src/shared/domain/onDevice.js';
import { deviceEnlarge2x } from '../../../server/engines/enlarge.js';
import { decodeRgb } from '../../../server/engines/image.js';
import { controlledBySw } from './offline.js';
import { Workspace } from './workspace.js';
import { fixture, UploadHarness } from './pwaHarness.js';

/**
 * A feature page under the service worker with a work that could not reach the server (uploads are
 * refused), so its card offers to process on the device; the card must name the first-use download.
 */
/** What the workspace says the first on-device enlarge downloads: our x2 net and the WASM runtime, in MB with one decimal. */
export const ENLARGE_FIRST_USE = `First use downloads ${((MODEL_BYTES[OWN_NETS.x2Small] + RUNTIME_BYTES) / 1e6).toFixed(1)} MB once`;

export async function deviceOnlyWork(page: Page, context: BrowserContext, featurePath: string, firstDownload: string) {
  await page.goto(featurePath);
  await controlledBySw(page);
  await expect(page.getByTestId('credits')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('open-workspace').click();
  await expect(page.getByTestId('file-input').first()).toBeAttached();
  // The server cannot be reached for uploads: the work stays on the device and offers itself there.
  await context.route('**/web_api/v1/upload**', (route) => route.abort('connectionrefused'));
  await context.route('**/api/v2/upload_slice**', (route) => route.abort('connectionrefused'));
  const ws = new Workspace(page);
  await ws.upload('chelsea.png');
  const card = ws.card('uploadFailed');
  await expect(card).toHaveCount(1, { timeout: 60_000 });
  await expect(card).toContainText(firstDownload);
  const cid = (await card.getAttribute('data-cid'))!;
  return { ws, card, cid };
}

/** The fitted bytes the page stored for a work (what both the device and the server would process). */
export async function storedBytes(page: Page, cid: string): Promise<Buffer> {
  const b64 = await page.evaluate(
    (cid) =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('pixmill');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('uploads').objectStore('uploads').get(cid);
          get.onsuccess = async () => {
            const buf = new Uint8Array(await (get.result.bytes as Blob).arrayBuffer());
            let s = '';
            for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode(...buf.subarray(i, i + 0x8000));
            resolve(btoa(s));
          };
        };
      }),
    cid,
  );
  return Buffer.from(b64, 'base64');
}

/** PSNR in dB between two equally sized 8-bit buffers (Infinity when identical). */
export function psnr(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new Error(`sizes differ: ${a.length} vs ${b.length}`);
  let se = 0;
  for (let i = 0; i < a.length; i++) se += (a[i]! - b[i]!) ** 2;
  return se === 0 ? Infinity : 10 * Math.log10((255 * 255) / (se / a.length));
}

const MODELS_DIR = path.resolve(import.meta.dirname, '../../../models');

/**
 * The server's enlarge 2x steps (settings rule, pre-denoise, the on-device x2 net with the device's
 * tiling, detail gain, post-sharpen: `deviceEnlarge2x`) on these bytes with these params (the module's
 * defaults unless told), as raw RGB. The server's own engine runs bigger nets; this is the same code
 * path on the net the device downloads.
 */
export async function serverEnlarge2x(bytes: Buffer, picked: Partial<ParamsOf<'enlarge'>> = {}): Promise<Buffer> {
  const out = await deviceEnlarge2x(
    await decodeRgb(bytes),
    { ...defaultParams('enlarge'), ...picked },
    MODELS_DIR,
    Math.min(2, os.cpus().length),
  );
  return Buffer.from(out.data);
}

/** A PNG's pixels as raw RGB (alpha dropped). */
export const rgbBytes = (png: Buffer | string) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });

/** Runs a feature in the page's image worker on the fixture and hands back the PNG bytes and the backend. */
export async function runInWorker(
  page: Page,
  feature: 'enlarge' | 'matting',
  file: string,
  options: OnDeviceOptions = {},
) {
  const harness = new UploadHarness(page);
  await harness.open({ level: 'guest' });
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'device-file';
    document.body.append(input);
  });
  await page.setInputFiles('#device-file', file);
  const r = await page.evaluate(
    async ([f, opts]) => {
      const blob = (document.querySelector('#device-file') as HTMLInputElement).files![0]!;
      const res = await (window as any).__harness.onDevice(f, blob, opts);
      const buf = new Uint8Array(await (res.blob as Blob).arrayBuffer());
      let s = '';
      for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode(...buf.subarray(i, i + 0x8000));
      return { b64: btoa(s), backend: res.backend as string, ms: res.ms as number };
    },
    [feature, options] as const,
  );
  return { png: Buffer.from(r.b64, 'base64'), backend: r.backend, ms: r.ms };
}

/**
 * The cat's face from chelsea.png (120×80) in a file of its own: one tile at x2, so a provider check costs
 * seconds, not a whole photo's run. `bytes` for the server's side; `remove()` when done.
 */
export async function catFace(): Promise<{ file: string; bytes: Buffer; remove(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cat-face-'));
  const file = path.join(dir, 'chelsea-face.png');
  await sharp(fixture('chelsea.png')).extract({ left: 190, top: 60, width: 120, height: 80 }).png().toFile(file);
  return { file, bytes: fs.readFileSync(file), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
