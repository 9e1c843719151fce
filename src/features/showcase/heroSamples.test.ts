import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FEATURE_PAGES, sampleTypeOf } from '../../shared/sitemap.js';
import type { SampleEntry } from '../../shared/domain/work.js';
import { heroSampleTypes, heroSampleUrls, SAMPLE_MANIFEST_URL } from './heroSamples.js';

const entry = (type: string, n: number): SampleEntry => ({
  name: `${type}${n}`,
  original: `/samples/${type}/o${n}.jpg`,
  processed: `/samples/${type}/p${n}-x{scale}.jpg`,
  w: 10,
  h: 10,
});

describe('hero samples (the precached set)', () => {
  it('covers every feature page and the home hero once', () => {
    const types = heroSampleTypes();
    for (const p of FEATURE_PAGES) expect(types).toContain(sampleTypeOf(p));
    expect(new Set(types).size).toBe(types.length);
  });

  it('lists the manifest and only the first pair of each hero type, results at 2x', () => {
    const manifest = Object.fromEntries(
      ['enlarge', 'denoise', 'sharpen_auto'].map((t) => [t, [entry(t, 1), entry(t, 2)]]),
    );
    expect(new Set(heroSampleUrls(manifest))).toEqual(
      new Set([
        SAMPLE_MANIFEST_URL,
        '/samples/denoise/o1.jpg',
        '/samples/denoise/p1-x2.jpg',
        '/samples/enlarge/o1.jpg',
        '/samples/enlarge/p1-x2.jpg',
      ]),
    );
    expect(heroSampleUrls(manifest)).toHaveLength(5);
  });

  it('stays under 1 MB for the shipped samples', () => {
    const manifest = JSON.parse(fs.readFileSync('public/samples/manifest.json', 'utf8')) as Record<
      string,
      SampleEntry[]
    >;
    const bytes = heroSampleUrls(manifest).reduce((sum, u) => sum + fs.statSync(`public${u}`).size, 0);
    expect(bytes).toBeLessThan(1024 * 1024);
  });
});
