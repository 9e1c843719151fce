import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UPLOAD_REFUSAL_KEY, uploadRefusalText } from './uploadRefusals.js';

describe('server upload refusal → i18n key', () => {
  it.each([
    ['Your file is too large', 'upload:fileTooLarge'],
    ['Image too large', 'upload:imageTooLarge'],
    ['Only JPG、JPEG and PNG images are supported.', 'upload:onlyJpgPng'],
    ['The file is empty.', 'upload:emptyFile'],
    ['The image is damaged or incomplete.', 'upload:damagedImage'],
    ['Too many requests, please retry later.', 'upload:tooManyRequests'],
    ['The upload was refused; please send the file again.', 'upload:sendAgain'],
    ['This image has expired and was deleted.', 'upload:expired'],
    ['job is invalid', 'upload:refused'],
    ['A reason the client has never heard of', 'upload:refused'],
    [undefined, 'upload:refused'],
  ] as const)('%j → %s', (msg, key) => {
    const r = uploadRefusalText(msg);
    expect(r.key).toBe(key);
    expect(r.reason).toBe(msg ?? '');
  });

  it('every key exists in every locale, and the fallback shows the reason', () => {
    const root = path.resolve(import.meta.dirname, '../../locales');
    for (const lng of fs.readdirSync(root)) {
      const upload = JSON.parse(fs.readFileSync(path.join(root, lng, 'upload.json'), 'utf8')) as Record<string, string>;
      for (const key of new Set(Object.values(UPLOAD_REFUSAL_KEY))) expect(upload[key.slice('upload:'.length)], `${lng} ${key}`).toBeTruthy();
      expect(upload.refused).toContain('{{reason}}');
    }
  });
});
