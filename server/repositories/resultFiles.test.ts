import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Readable } from 'node:stream';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contentTypeOf, convertCompressed, downloadName, extOf, extOfKey, zipOf } from './resultFiles.js';

describe('result files', () => {
  it('maps formats and keys to extensions and types', () => {
    expect(extOf('jpeg')).toBe('jpg');
    expect(extOf('png')).toBe('png');
    expect(extOfKey('results/ab/ab3e0c1e-1111-4111-8111-111111111111.psd')).toBe('psd');
    expect(contentTypeOf('jpg')).toBe('image/jpeg');
    expect(contentTypeOf('psd')).toBe('image/vnd.adobe.photoshop');
    expect(contentTypeOf('exe')).toBe('application/octet-stream');
    // the name rule itself is tested in src/shared/domain/resultName.test.ts
    expect(downloadName('cat.png', 'matting', 'png')).toBe('matting-cat.png');
  });
});

describe('convertCompressed', () => {
  it('re-encodes to each type, flattening alpha for JPEG', async () => {
    const png = await sharp({
      create: { width: 40, height: 30, channels: 4, background: { r: 200, g: 10, b: 10, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    for (const to of ['jpg', 'png', 'webp'] as const) {
      const meta = await sharp(await convertCompressed(png, to, 60)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([to === 'jpg' ? 'jpeg' : to, 40, 30]);
    }
    const { data } = await sharp(await convertCompressed(png, 'jpg', 90))
      .raw()
      .toBuffer({ resolveWithObject: true });
    // half-transparent red over white ≈ (228, 133, 133)
    expect(data[0]).toBeGreaterThan(215);
    expect(data[1]).toBeGreaterThan(115);
  });
});

describe('zipOf', () => {
  it('stores every file under a unique name', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-zip-'));
    try {
      const a = path.join(dir, 'a');
      const b = path.join(dir, 'b');
      fs.writeFileSync(a, 'first');
      fs.writeFileSync(b, 'second');
      const chunks: Buffer[] = [];
      for await (const c of zipOf([
        { path: a, name: 'x_compress.jpg' },
        { path: b, name: 'x_compress.jpg' },
      ]) as Readable)
        chunks.push(c as Buffer);
      const zip = Buffer.concat(chunks);
      const text = zip.toString('latin1');
      expect(text).toContain('x_compress.jpg');
      expect(text).toContain('x_compress (1).jpg');
      expect(text).toContain('first');
      expect(text).toContain('second');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
