/**
 * Renders the PWA icons (public/icons/) from one SVG with sharp: 192 and 512 "any" icons and a 512
 * maskable icon whose mark sits inside the 80 % safe zone on a full-bleed background.
 * Run: node --import tsx scripts/make-icons.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const THEME = '#4f46e5';
const out = path.resolve(import.meta.dirname, '../public/icons');

/** A mill wheel (the "mill" of Pixmill) made of pixel squares, on a rounded tile. */
function mark(size: number, { bleed, scale }: { bleed: boolean; scale: number }): string {
  const c = size / 2;
  const r = (size / 2) * scale;
  const blades = Array.from({ length: 8 }, (_, i) => {
    const a = (i * Math.PI) / 4;
    const x = c + Math.cos(a) * r * 0.62;
    const y = c + Math.sin(a) * r * 0.62;
    const s = r * 0.3;
    const shade = i % 2 ? '#c7d2fe' : '#ffffff';
    return `<rect x="${x - s / 2}" y="${y - s / 2}" width="${s}" height="${s}" rx="${s * 0.12}" fill="${shade}" transform="rotate(${(i * 45) % 90} ${x} ${y})"/>`;
  }).join('');
  const bg = bleed
    ? `<rect width="${size}" height="${size}" fill="${THEME}"/>`
    : `<rect width="${size}" height="${size}" rx="${size * 0.22}" fill="${THEME}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  ${bg}
  <circle cx="${c}" cy="${c}" r="${r * 0.78}" fill="none" stroke="#a5b4fc" stroke-width="${r * 0.06}"/>
  ${blades}
  <rect x="${c - r * 0.2}" y="${c - r * 0.2}" width="${r * 0.4}" height="${r * 0.4}" rx="${r * 0.06}" fill="#fbbf24"/>
</svg>`;
}

async function render(file: string, size: number, opts: { bleed: boolean; scale: number }): Promise<void> {
  await sharp(Buffer.from(mark(size, opts)))
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, file));
  console.log('wrote', path.relative(process.cwd(), path.join(out, file)));
}

fs.mkdirSync(out, { recursive: true });
await render('icon-192.png', 192, { bleed: false, scale: 0.92 });
await render('icon-512.png', 512, { bleed: false, scale: 0.92 });
// Maskable: the launcher may crop to a circle of 80 % diameter, so the mark stays within it.
await render('maskable-512.png', 512, { bleed: true, scale: 0.72 });
await render('apple-touch-icon-180.png', 180, { bleed: true, scale: 0.8 });
