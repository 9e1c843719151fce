// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { i18n, loadLanguage, setLanguage } from './index.js';

describe('locales: en bundled, the others loaded on demand', () => {
  it('starts with English only', () => {
    expect(i18n.hasResourceBundle('en', 'upload')).toBe(true);
    expect(i18n.hasResourceBundle('fr', 'upload')).toBe(false);
  });
  it('loads every namespace of a language before switching to it', async () => {
    await setLanguage('ja');
    expect(i18n.language).toBe('ja');
    expect(document.documentElement.lang).toBe('ja');
    for (const ns of ['account', 'common', 'errors', 'pwa', 'site', 'upload', 'workspace'])
      expect(i18n.hasResourceBundle('ja', ns), ns).toBe(true);
    expect(i18n.t('upload:fileTooLarge')).toBe('ファイルが大きすぎます');
    await setLanguage('en');
    expect(i18n.t('upload:fileTooLarge')).toBe('Your file is too large');
  });
  it('loads a language once', async () => {
    const a = loadLanguage('de');
    const b = loadLanguage('de');
    expect(a).toBe(b);
    await a;
    expect(i18n.t('upload:fileTooLarge', { lng: 'de' })).toBe('Ihre Datei ist zu groß');
  });
});
