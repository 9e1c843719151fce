import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../shared/domain/locale.js';

const root = path.resolve(import.meta.dirname, '../../locales');

function flatten(obj: unknown, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
    for (const [k, v] of Object.entries(obj)) Object.assign(out, flatten(v, prefix ? `${prefix}.${k}` : k));
  } else out[prefix] = obj;
  return out;
}

const read = (lng: string, ns: string) =>
  flatten(JSON.parse(fs.readFileSync(path.join(root, lng, `${ns}.json`), 'utf8')));
const namespaces = fs
  .readdirSync(path.join(root, 'en'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));
const vars = (s: unknown) => (typeof s === 'string' ? [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort() : []);

describe('every locale has every key of en, none empty', () => {
  it('has the four languages and several namespaces', () => {
    expect(LANGUAGES).toEqual(['en', 'de', 'fr', 'ja']);
    // The one language list (client routes, server locale check, sitemap) matches the locale folders.
    expect(fs.readdirSync(root).sort()).toEqual([...LANGUAGES].sort());
    expect(namespaces).toEqual(expect.arrayContaining(['common', 'workspace', 'errors', 'site']));
  });
  for (const lng of LANGUAGES) {
    for (const ns of namespaces) {
      it(`${lng}/${ns}`, () => {
        const en = read('en', ns);
        const other = read(lng, ns);
        const missing = Object.keys(en).filter((k) => !(k in other));
        expect(missing, `missing in ${lng}/${ns}`).toEqual([]);
        const empty = Object.entries(other)
          .filter(([, v]) => typeof v !== 'string' || v.trim() === '')
          .map(([k]) => k);
        expect(empty, `empty in ${lng}/${ns}`).toEqual([]);
        // Interpolation variables must survive translation.
        const broken = Object.keys(en).filter((k) => JSON.stringify(vars(en[k])) !== JSON.stringify(vars(other[k])));
        expect(broken, `placeholders differ in ${lng}/${ns}`).toEqual([]);
      });
    }
  }
  it('non-English texts are really translated (most values differ from en)', () => {
    for (const lng of ['de', 'fr', 'ja']) {
      for (const ns of ['common', 'workspace', 'site']) {
        const en = read('en', ns);
        const other = read(lng, ns);
        const same = Object.keys(en).filter((k) => en[k] === other[k]);
        expect(same.length / Object.keys(en).length, `${lng}/${ns}: ${same.join(', ')}`).toBeLessThan(0.2);
      }
    }
  });
});

describe('Japanese texts say a scale one way', () => {
  it('as 倍 ("4倍"), never as "4x" beside it', () => {
    const mixed = namespaces.flatMap((ns) =>
      Object.entries(read('ja', ns))
        .filter(([, v]) => typeof v === 'string' && /(\d|}})\s*x(?![a-z])/i.test(v))
        .map(([k, v]) => `${ns}:${k}: ${String(v)}`),
    );
    expect(mixed).toEqual([]);
  });
});
