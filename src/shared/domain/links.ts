/** Site links in the page's language (spec §2): language prefixes and pricing links. */
import type { Language } from './locale.js';

/** Site links are prefixed by the language code for ja, fr and de; en has none. */
export function localizedPath(path: string, lng: Language): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  return lng === 'en' ? clean : `/${lng}${clean === '/' ? '/' : clean}`;
}

/** Splits a pathname into its language and the language-free path. */
export function splitLanguage(pathname: string): { lng: Language; path: string } {
  const m = /^\/(de|fr|ja)(\/.*)?$/.exec(pathname);
  if (!m) return { lng: 'en', path: pathname || '/' };
  return { lng: m[1] as Language, path: m[2] || '/' };
}

/** Pricing links carry source and medium (spec §2). */
export function pricingUrl(lng: Language, source: string, medium?: string): string {
  const q = new URLSearchParams({ source });
  if (medium) q.set('medium', medium);
  return `${localizedPath('/pricing/', lng)}?${q.toString()}`;
}
