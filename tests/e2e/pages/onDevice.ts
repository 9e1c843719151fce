/** Helpers for on-device processing checks: the server's engine on the same bytes, PSNR. */
import type { Page } from '@playwright/test';

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
