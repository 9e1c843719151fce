/** i18next with every locales/<lng>/<ns>.json bundled (namespaces = file names); keys typed from en. */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from '../domain/rules.js';

const files = import.meta.glob('../../locales/*/*.json', { eager: true, import: 'default' }) as Record<string, Record<string, unknown>>;

export type Resources = Record<string, Record<string, Record<string, unknown>>>;

export function buildResources(input: Record<string, Record<string, unknown>>): Resources {
  const resources: Resources = {};
  for (const [path, json] of Object.entries(input)) {
    const m = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!m) continue;
    (resources[m[1]] ??= {})[m[2]] = json;
  }
  return resources;
}

export const resources = buildResources(files);
export const namespaces = Object.keys(resources.en ?? {});

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources,
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  ns: namespaces,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

export function setLanguage(lng: Language): void {
  if (i18n.language !== lng) void i18n.changeLanguage(lng);
  document.documentElement.lang = lng;
}
