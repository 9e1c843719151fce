// Every language has every upload/pwa text, non-empty; the English texts are the spec's.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.resolve(import.meta.dirname, '../../locales');
type Tree = { [k: string]: string | Tree };
/** Nested keys flattened to dotted paths (`refusal.damaged`), as i18next reads them. */
const flat = (t: Tree, pre = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(t).flatMap(([k, v]) =>
      typeof v === 'string' ? [[pre + k, v]] : Object.entries(flat(v, `${pre}${k}.`)),
    ),
  );
const read = (lng: string, ns: string) =>
  flat(JSON.parse(fs.readFileSync(path.join(dir, lng, `${ns}.json`), 'utf8')) as Tree);

describe.each(['upload', 'pwa'])('locales/*/%s.json', (ns) => {
  const en = read('en', ns);
  it.each(['de', 'fr', 'ja'])('%s has every key, translated', (lng) => {
    const other = read(lng, ns);
    expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
    for (const [k, v] of Object.entries(other)) {
      expect(v.trim(), `${lng}/${ns}:${k}`).not.toBe('');
      // Same text as English only where the word is the same (e.g. "Original").
      if (v === en[k]) expect(['showingOriginal']).toContain(k);
    }
  });
});

it('the English upload texts are the spec texts', () => {
  expect(read('en', 'upload')).toMatchObject({
    unsupportedFormat: 'Unsupported image format.',
    onlyJpgPng: 'Only JPG、JPEG and PNG images are supported.',
    invalidFileType: 'Invalid file type.',
    tooManyFiles: 'Too many files uploaded at once',
    onlyPaidMultiple: 'Only paid users can upload multiple images at the same time',
    fileTooLarge: 'Your file is too large',
    uploadFailed: 'Upload failed',
    network: 'Check your network and try again.',
    unknown: 'Unknown error',
  });
  // The spec's texts with the plan's own numbers (the queue is 10 on Pro; the limits are the plan's).
  const en = read('en', 'upload');
  expect(en.queueFull.replace('{{count}}', '5')).toBe('Upload queue cannot be more than 5');
  expect(en.imageTooLarge).toMatch(/^Image too large: .*\{\{mp\}\} MP.*\{\{side\}\}/);
});
