import { describe, expect, it } from 'vitest';
import { localizedPath, pricingUrl, splitLanguage } from './links.js';
import { currencyFor } from './locale.js';

describe('languages, currency, links', () => {
  it.each([
    ['en', 'USD'],
    ['ja', 'USD'],
    ['de', 'EUR'],
    ['fr', 'EUR'],
  ] as const)('%s pays in %s', (lng, cur) => expect(currencyFor(lng)).toBe(cur));
  it('prefixes all but en', () => {
    expect(localizedPath('/pricing/', 'en')).toBe('/pricing/');
    expect(localizedPath('/pricing/', 'ja')).toBe('/ja/pricing/');
    expect(localizedPath('/', 'de')).toBe('/de/');
  });
  it('splits the language', () => {
    expect(splitLanguage('/fr/batch-process/')).toEqual({ lng: 'fr', path: '/batch-process/' });
    expect(splitLanguage('/batch-process/')).toEqual({ lng: 'en', path: '/batch-process/' });
    expect(splitLanguage('/de')).toEqual({ lng: 'de', path: '/' });
  });
  it('pricing links carry source and medium', () => {
    expect(pricingUrl('en', 'workflow', 'upgrade_btn')).toBe('/pricing/?source=workflow&medium=upgrade_btn');
    expect(pricingUrl('de', 'add_credits_popup')).toBe('/de/pricing/?source=add_credits_popup');
  });
});
