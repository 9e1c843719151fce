import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sniffImageKind, validateFile, validateImage } from './validate.js';

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
    ['empty.png', 'image/png', new Uint8Array(), { ok: false, error: 'upload:invalidFileType' }],
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
