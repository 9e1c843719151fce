// Every refusal reason the server can answer (src/shared/domain/reasons.ts) has its text in the four
// languages, resolved the way the client shows it: nested texts ($t(upload:…)) found, placeholders filled.
import fs from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../shared/domain/locale.js';
import { REASON_CODES } from '../shared/domain/reasons.js';

const root = path.resolve(import.meta.dirname, '../../locales');
const read = (lng: string, ns: string) =>
  JSON.parse(fs.readFileSync(path.join(root, lng, `${ns}.json`), 'utf8')) as Record<string, unknown>;
const namespaces = fs.readdirSync(path.join(root, 'en')).map((f) => f.replace(/\.json$/, ''));
/** A value for every placeholder a reason's text may name. */
const VALUES = {
  field: 'uid',
  max: 3,
  min: 1,
  mp: 2.8,
  w: 16800,
  h: 4000,
  mb: 5,
  days: 7,
  limit: '200 MB',
  minutes: 15,
  module: 'enlarge',
  param: 'scale',
  scale: 4,
  count: 2,
  side: 4096,
  retry_after: 1800,
};

describe('refusal reasons: a text for every code in every language', () => {
  it('the catalogue has codes and each language names exactly them', () => {
    expect(REASON_CODES.length).toBeGreaterThan(100);
    for (const lng of LANGUAGES)
      expect(Object.keys(read(lng, 'reasons')).sort(), lng).toEqual([...REASON_CODES].sort());
  });

  it.each([...LANGUAGES])('%s: every code resolves to a text, nested texts and placeholders filled', async (lng) => {
    const t = i18next.createInstance();
    await t.init({
      lng,
      fallbackLng: false,
      resources: Object.fromEntries(
        LANGUAGES.map((l) => [l, Object.fromEntries(namespaces.map((ns) => [ns, read(l, ns)]))]),
      ),
      interpolation: { escapeValue: false },
    });
    const missing: string[] = [];
    for (const code of REASON_CODES) {
      const text = t.t(`reasons:${code}`, VALUES);
      if (
        !text ||
        text === code ||
        text === `reasons:${code}` ||
        /\$t\(|{{|reasons:|upload:|workspace:|account:|errors:/.test(text)
      )
        missing.push(`${code}: ${text}`);
    }
    expect(missing).toEqual([]);
  });

  it('non-English texts are translated, not copies of English', () => {
    const en = read('en', 'reasons');
    for (const lng of ['de', 'fr', 'ja']) {
      const other = read(lng, 'reasons');
      const same = Object.keys(en).filter((k) => en[k] === other[k] && !String(en[k]).startsWith('$t('));
      expect(same, lng).toEqual([]);
    }
  });
});
