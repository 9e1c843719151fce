// Upload refusals travel as codes: each code has its text in every locale; the client never reads the English back.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHUNK_SIZE_BYTES } from './constants.js';
import {
  refusalOf,
  UPLOAD_REFUSAL,
  UPLOAD_REFUSAL_KEY,
  uploadRefusalText,
  type UploadRefusal,
} from './uploadRefusals.js';

const root = path.resolve(import.meta.dirname, '../../../locales');
const LOCALES = ['en', 'de', 'fr', 'ja'] as const;
const upload = (lng: string) =>
  JSON.parse(fs.readFileSync(path.join(root, lng, 'upload.json'), 'utf8')) as Record<string, unknown>;
const at = (ns: Record<string, unknown>, key: string): unknown =>
  key
    .slice('upload:'.length)
    .split('.')
    .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), ns);
const CODES = Object.keys(UPLOAD_REFUSAL) as UploadRefusal[];

describe('server upload refusal → i18n key, from its code', () => {
  it.each(CODES)('%s is shown with its own key, whatever the English says', (code) => {
    const r = uploadRefusalText({ msg: 'any text at all', reason: code });
    expect(r.key).toBe(UPLOAD_REFUSAL_KEY[code]);
    expect(r.key).not.toBe('upload:refused');
  });

  it('refusals without a code (answered before the upload code runs) go by HTTP status, else show the server text', () => {
    expect(uploadRefusalText({ msg: 'Your file is too large', status: 413 }).key).toBe('upload:fileTooLarge');
    expect(uploadRefusalText({ msg: 'Too many requests', status: 429 }).key).toBe('upload:tooManyRequests');
    // The English text alone does not pick a key any more.
    expect(uploadRefusalText({ msg: 'Your file is too large', status: 400 })).toMatchObject({
      key: 'upload:refused',
      reason: 'Your file is too large',
    });
    expect(uploadRefusalText({ msg: '  something new ' })).toMatchObject({
      key: 'upload:refused',
      reason: 'something new',
    });
  });

  it('the code is read from the envelope data; anything else is no code', () => {
    expect(refusalOf({ refusal: 'corrupt' })).toBe('corrupt');
    expect(refusalOf({ refusal: 'toString' })).toBeUndefined();
    expect(refusalOf({ refusal: 'made up' })).toBeUndefined();
    expect(refusalOf(null)).toBeUndefined();
    expect(refusalOf(undefined)).toBeUndefined();
  });

  it('the slice limit is stated from the constant, in the API text and in the shown values', () => {
    const mb = CHUNK_SIZE_BYTES / 1024 / 1024;
    expect(UPLOAD_REFUSAL.sliceTooLarge).toBe(`A slice may be at most ${mb} MB`);
    expect(uploadRefusalText({ msg: '', reason: 'sliceTooLarge' }).mb).toBe(mb);
  });

  it.each(LOCALES)('%s has a text for every refusal code, and the fallback shows the reason', (lng) => {
    const ns = upload(lng);
    for (const code of CODES) {
      const text = at(ns, UPLOAD_REFUSAL_KEY[code]);
      expect(typeof text === 'string' && text.trim().length > 0, `${lng} ${code} → ${UPLOAD_REFUSAL_KEY[code]}`).toBe(
        true,
      );
      // Translated, not English copied over (the spec's product names aside, none of these read the same).
      if (lng !== 'en') expect(text, `${lng} ${code}`).not.toBe(at(upload('en'), UPLOAD_REFUSAL_KEY[code]));
    }
    expect(ns.refused).toContain('{{reason}}');
    expect(at(ns, UPLOAD_REFUSAL_KEY.sliceTooLarge)).toContain('{{mb}}');
  });
});
