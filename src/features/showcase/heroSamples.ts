/**
 * The storefront's hero samples: the one before/after pair each feature page (and the home page) shows.
 * The service worker precaches exactly these and the sample manifest (vite.config.ts), so a feature page's
 * hero still shows its pictures offline; the other samples are cached at run time on first use.
 */
import { FEATURE_PAGES, sampleTypeOf } from '../../shared/sitemap.js';
import type { SampleEntry } from '../../shared/domain/work.js';

export const SAMPLE_MANIFEST_URL = '/samples/manifest.json';

/**
 * The home page hero's sample type (also a feature page's, so it adds nothing to the precache):
 * background removal, our clearest result at a glance. Not colorize: a classical
 * colorizer that stays near neutral where it does not understand the scene is not the proof to lead with.
 */
export const HOME_HERO_TYPE = 'matting';
/** The feature page key of the hero's type, for its label. */
export const HOME_HERO_KEY = 'remove_background';

/** A sample's result path: enlarge shows its 2× output, portrait its whole-picture sketch. */
export function sampleResult(e: SampleEntry): string {
  return e.processed.replaceAll('{scale}', '2');
}

/** The sample types a hero shows: one per feature page, plus the home page's. */
export function heroSampleTypes(): string[] {
  return [...new Set([HOME_HERO_TYPE, ...FEATURE_PAGES.map(sampleTypeOf)])];
}

/** A hero shows the first sample of its type. */
export function heroEntry(manifest: Record<string, SampleEntry[]>, type: string): SampleEntry | null {
  return manifest[type]?.[0] ?? null;
}

/** The manifest and the before/after image URLs of every hero, without duplicates. */
export function heroSampleUrls(manifest: Record<string, SampleEntry[]>): string[] {
  const urls = new Set<string>([SAMPLE_MANIFEST_URL]);
  for (const type of heroSampleTypes()) {
    const e = heroEntry(manifest, type);
    if (e) [e.original, sampleResult(e)].forEach((u) => urls.add(u));
  }
  return [...urls];
}
