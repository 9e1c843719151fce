/** Translation keys as types, derived from locales/en (see types.d.ts), and a guard for keys known only at run time. */
import { i18n } from './index.js';
import type { Resources } from './types.js';
import type { FeatureKey } from '../shared/sitemap.js';
import type { Reason } from '../shared/domain/reasons.js';
import type { Same } from '../shared/schemas/common.js';

type Leaves<T> = { [K in keyof T & string]: T[K] extends string ? K : `${K}.${Leaves<T[K]>}` }[keyof T & string];

/** Every key of one namespace, e.g. KeyOf<'upload'> = 'fileTooLarge' | …. */
export type KeyOf<NS extends keyof Resources> = Leaves<Resources[NS]>;
/** Every key with its namespace, e.g. 'upload:fileTooLarge'. */
export type AnyKey = { [NS in keyof Resources]: `${NS}:${KeyOf<NS>}` }[keyof Resources];

/** A key that came as data (a worker's error key, a server's job name): usable once the bundle has it. */
export function isKey(key: string): key is AnyKey {
  return /^\w+:/.test(key) && i18n.exists(key);
}

/** Whether `name` is a key of `group` in namespace `ns`; narrows a name from data (a URL, a server field) for t(). */
export function isKeyIn<NS extends keyof Resources, G extends keyof Resources[NS] & string>(
  ns: NS,
  group: G,
  name: unknown,
): name is keyof Resources[NS][G] & string {
  return typeof name === 'string' && i18n.exists(`${ns}:${group}.${name}`);
}

type SiteFeatures = Resources['site']['features'];
/** The feature keys that have a page text (title and lead) in locales/<lng>/site.json. */
type FeatureTextKey = {
  [K in keyof SiteFeatures]: SiteFeatures[K] extends { title: string; lead: string } ? K : never;
}[keyof SiteFeatures];
/** Compile-time check: every feature page of the sitemap (src/shared/sitemap.ts) has its title and lead. */
type SitemapFeaturesHaveTexts = FeatureKey extends FeatureTextKey ? true : never;
const _sitemapFeaturesHaveTexts: SitemapFeaturesHaveTexts = true;
void _sitemapFeaturesHaveTexts;

/** Compile-time check: the reasons namespace has a text for every refusal reason of the catalogue, and none besides (src/i18n/reasons.test.ts checks all four languages). */
type ReasonsHaveTexts = Same<KeyOf<'reasons'>, Reason>;
const _reasonsHaveTexts: ReasonsHaveTexts = true;
void _reasonsHaveTexts;
