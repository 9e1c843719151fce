/** Files the upload specs upload, made on the fly (a photo of a given size, a JPEG cut off mid-file). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { fixture } from './workspace.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-e2e-files-'));

/** A w×h JPEG with real detail (a gradient and stripes), small on disk. */
export async function photoOf(w: number, h: number, name = `photo-${w}x${h}.jpg`): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#2a6fdb"/><stop offset="1" stop-color="#f5b041"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><g stroke="#fff" stroke-width="${Math.max(2, Math.round(w / 400))}">${Array.from({ length: 12 }, (_, i) => `<line x1="${(i * w) / 12}" y1="0" x2="${w - (i * w) / 12}" y2="${h}"/>`).join('')}</g></svg>`;
  const file = path.join(dir, name);
  await sharp(Buffer.from(svg), { limitInputPixels: false }).jpeg({ quality: 80 }).toFile(file);
  return file;
}

/** rocket.jpg cut after 55 % of its bytes: a JPEG by its signature whose data ends early. */
export function truncatedJpeg(name = 'cut-off.jpg'): string {
  const bytes = fs.readFileSync(fixture('rocket.jpg'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length * 0.55)));
  return file;
}

/** A plain sky (a soft vertical gradient) with a patch of fine detail in its lower left corner. */
export async function skyWithDetail(w = 640, h = 400, name = 'sky-detail.png'): Promise<string> {
  const cells = Array.from({ length: 24 }, (_, i) =>
    Array.from({ length: 12 }, (_, j) =>
      (i + j) % 2 ? `<rect x="${20 + i * 6}" y="${h - 100 + j * 6}" width="6" height="6" fill="#222"/>` : '',
    ).join(''),
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="s" x2="0" y2="1"><stop offset="0" stop-color="#4f8fe0"/><stop offset="1" stop-color="#9cc4f2"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#s)"/>${cells}<text x="24" y="${h - 110}" font-size="22" font-family="sans-serif" fill="#fff">detail here</text></svg>`;
  const file = path.join(dir, name);
  await sharp(Buffer.from(svg)).png().toFile(file);
  return file;
}
