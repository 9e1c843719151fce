/**
 * Result files as stored (blob keys under results/, the work's extras JSON): their extensions, download
 * names and content types, the compress result's conversion and zip bundles of them. Services reach the
 * stored results through here (services/downloads.ts for every download); routes only through the services.
 */
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import yazl from 'yazl';

export const EXTRA_TYPES = ['jpg', 'png', 'webp'] as const;
export type ExtraType = (typeof EXTRA_TYPES)[number];

export function extOf(format: string): string {
  const f = format.toLowerCase();
  return f === 'jpeg' ? 'jpg' : f;
}

/** File extension of a blob key ('results/ab/…uuid.png' → 'png'). */
export function extOfKey(key: string): string {
  const m = /\.([a-z0-9]+)$/i.exec(key);
  return m ? m[1]!.toLowerCase() : 'bin';
}

const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  psd: 'image/vnd.adobe.photoshop',
  zip: 'application/zip',
};

export function contentTypeOf(ext: string): string {
  return TYPES[ext.toLowerCase()] ?? 'application/octet-stream';
}

/** Spec §3: matting results are `matting-<basename>.png`; others `<basename>_<job>.<ext>` (the rule: src/shared/domain/resultName.ts). */
export { resultFileName as downloadName } from '../../src/shared/domain/resultName.js';

/** Re-encodes a compress result as jpg/png/webp at the work's quality; JPEG gets a white background for alpha. */
export async function convertCompressed(data: Buffer, to: ExtraType, quality: number): Promise<Buffer> {
  const img = sharp(data, { failOn: 'error' });
  switch (to) {
    case 'jpg':
      return img.flatten({ background: '#ffffff' }).jpeg({ mozjpeg: true, quality }).toBuffer();
    case 'png':
      return img.png({ palette: true, quality, effort: 7, compressionLevel: 9 }).toBuffer();
    case 'webp':
      return img.webp({ quality, effort: 4 }).toBuffer();
  }
}

/** The extra outputs of a work (psd, zoom variants): variant → blob key. */
export function extrasOf(json: string | null): Record<string, string> {
  if (!json) return {};
  try {
    return JSON.parse(json) as Record<string, string>;
  } catch {
    return {};
  }
}

export interface ZipEntry {
  path: string;
  name: string;
}

/** A zip stream of result files, stored without deflate (images are already compressed); names made unique. */
export function zipOf(entries: ZipEntry[]): Readable {
  const zip = new yazl.ZipFile();
  const used = new Set<string>();
  for (const e of entries) {
    let name = e.name;
    for (let n = 1; used.has(name.toLowerCase()); n++) name = e.name.replace(/(\.[^.]*)?$/, (ext) => ` (${n})${ext}`);
    used.add(name.toLowerCase());
    zip.addFile(e.path, name, { compress: false });
  }
  zip.end();
  return zip.outputStream as Readable;
}
