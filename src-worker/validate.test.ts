import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { declaredSize, sniffImageKind, tooLargeToOpen, validateFile, validateImage } from './validate.js';

const fixtures = path.resolve(import.meta.dirname, '../tests/fixtures');
const head = (file: string) => new Uint8Array(fs.readFileSync(path.join(fixtures, file)).subarray(0, 16));

describe('sniffImageKind', () => {
  it('reads JPEG and PNG signatures from real files', () => {
    expect(sniffImageKind(head('rocket.jpg'))).toBe('jpeg');
    expect(sniffImageKind(head('chelsea.png'))).toBe('png');
  });
  it('refuses other and truncated content', () => {
    expect(sniffImageKind(new TextEncoder().encode('GIF89a......'))).toBeNull();
    expect(sniffImageKind(new Uint8Array([0xff, 0xd8]))).toBeNull();
    expect(sniffImageKind(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
    expect(sniffImageKind(new Uint8Array())).toBeNull();
  });
});

describe('validateImage', () => {
  const jpeg = head('rocket.jpg');
  const png = head('chelsea.png');
  const gif = new TextEncoder().encode('GIF89a\x01\x00\x01\x00');
  it.each([
    ['photo.jpg', 'image/jpeg', jpeg, { ok: true, kind: 'jpeg' }],
    ['photo.JPEG', '', jpeg, { ok: true, kind: 'jpeg' }],
    ['cat.png', 'image/png', png, { ok: true, kind: 'png' }],
    // named JPG but PNG inside: the content is an accepted type, so it passes as PNG
    ['cat.jpg', 'image/jpeg', png, { ok: true, kind: 'png' }],
    ['fake.jpg', 'image/jpeg', gif, { ok: false, error: 'upload:invalidFileType' }],
    // no bytes at all is an empty file, not a wrong type (whatever the name says)
    ['empty.png', 'image/png', new Uint8Array(), { ok: false, error: 'upload:emptyFile' }],
    ['empty.txt', 'text/plain', new Uint8Array(), { ok: false, error: 'upload:emptyFile' }],
    ['anim.gif', 'image/gif', gif, { ok: false, error: 'upload:unsupportedFormat' }],
    ['shot.webp', 'image/webp', gif, { ok: false, error: 'upload:unsupportedFormat' }],
    ['noext', 'image/bmp', gif, { ok: false, error: 'upload:unsupportedFormat' }],
    ['notes.txt', 'text/plain', new TextEncoder().encode('hello'), { ok: false, error: 'upload:onlyJpgPng' }],
    // JPEG bytes under a non-image name: the name must say JPG/JPEG/PNG too
    ['photo.pdf', 'application/pdf', jpeg, { ok: false, error: 'upload:onlyJpgPng' }],
  ])('%s (%s)', (name, mime, bytes, expected) => {
    expect(validateImage(name, mime, bytes)).toMatchObject(expected);
  });
});

describe('validateFile', () => {
  it('reads the head of a real File', async () => {
    const bytes = fs.readFileSync(path.join(fixtures, 'rocket.jpg'));
    const v = await validateFile(new File([bytes], 'rocket launch!.jpg', { type: 'image/jpeg' }));
    expect(v).toEqual({ ok: true, kind: 'jpeg', mime: 'image/jpeg', filename: 'rocket launch_.jpg' });
  });
});

describe('too large to open, by the header', () => {
  /** A PNG signature and an IHDR declaring w×h, nothing after it (what a decode would fail on). */
  const pngHeader = (w: number, h: number) => {
    const b = new Uint8Array(33);
    b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    new DataView(b.buffer).setUint32(16, w);
    new DataView(b.buffer).setUint32(20, h);
    return b;
  };
  it('a PNG declaring 50000×50000 is too large (not damaged); a real photo is not', async () => {
    expect(declaredSize(pngHeader(50000, 50000))).toEqual({ w: 50000, h: 50000 });
    expect(await tooLargeToOpen(new Blob([pngHeader(50000, 50000)]))).toEqual({ w: 50000, h: 50000 });
    expect(await tooLargeToOpen(new Blob([pngHeader(10000, 10000)]))).toBeNull();
    const jpeg = fs.readFileSync(path.join(fixtures, 'rocket.jpg'));
    expect(declaredSize(new Uint8Array(jpeg))).toEqual({ w: 640, h: 427 });
    expect(await tooLargeToOpen(new Blob([jpeg]))).toBeNull();
  });
});
