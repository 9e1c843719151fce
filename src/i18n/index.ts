/**
 * i18next with locales/<lng>/<ns>.json (namespaces = file names); keys typed from en (types.d.ts).
 * English is bundled; every other language is a lazy chunk per namespace, loaded before the
 * language is switched to (Excalidraw's practice) and cached by the service worker at run time.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from '../shared/domain/locale.js';

type Json = Record<string, unknown>;

/**
 * English is bundled, except the refusal reasons (locales/<lng>/reasons.json, one text per code of
 * src/shared/domain/reasons.ts): rarely shown, so loaded when an answer carries a reason (loadReasons).
 */
const english = import.meta.glob(['../../locales/en/*.json', '!../../locales/en/reasons.json'], {
  eager: true,
  import: 'default',
}) as Record<string, Json>;
const englishReasons = import.meta.glob('../../locales/en/reasons.json', { import: 'default' }) as Record<
  string,
  () => Promise<Json>
>;
const others = import.meta.glob(['../../locales/*/*.json', '!../../locales/en/*.json'], {
  import: 'default',
}) as Record<string, () => Promise<Json>>;

const PATH = /locales\/([^/]+)\/([^/]+)\.json$/;

type Resources = Record<string, Record<string, Json>>;

function buildResources(input: Record<string, Json>): Resources {
  const resources: Resources = {};
  for (const [path, json] of Object.entries(input)) {
    const m = PATH.exec(path);
    if (!m) continue;
    (resources[m[1]] ??= {})[m[2]] = json;
  }
  return resources;
}

const resources = buildResources(english);
const namespaces = Object.keys(resources.en ?? {});

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
  // Other languages arrive through loadLanguage; missing bundles are not an error meanwhile.
  partialBundledLanguages: true,
});

const loading = new Map<Language, Promise<void>>();

/** Fetches every namespace of a language once (en is always there). */
export function loadLanguage(lng: Language): Promise<void> {
  if (lng === 'en' || i18n.hasResourceBundle(lng, 'common')) return Promise.resolve();
  let p = loading.get(lng);
  if (!p) {
    const files = Object.entries(others).filter(([path]) => PATH.exec(path)?.[1] === lng);
    p = Promise.all(
      files.map(async ([path, load]) => {
        const ns = PATH.exec(path)![2];
        i18n.addResourceBundle(lng, ns, await load(), true, true);
      }),
    ).then(
      () => undefined,
      (e: unknown) => {
        // Offline before the chunk was cached: try again next time, English meanwhile.
        loading.delete(lng);
        throw e;
      },
    );
    loading.set(lng, p);
  }
  return p;
}

let reasons: Promise<void> | null = null;

/**
 * The refusal reasons' texts (namespace `reasons`) in English and in the current language, loaded once;
 * the API client awaits it before it hands a refusal with a reason on, so errorText() can say it.
 */
export function loadReasons(): Promise<void> {
  reasons ??= Promise.all(
    Object.values(englishReasons).map(async (load) =>
      i18n.addResourceBundle('en', 'reasons', await load(), true, true),
    ),
  ).then(
    () => undefined,
    (e: unknown) => {
      reasons = null;
      throw e;
    },
  );
  const lng = i18n.language as Language;
  return Promise.all([reasons, (LANGUAGES as readonly string[]).includes(lng) ? loadLanguage(lng) : undefined]).then(
    () => undefined,
  );
}

/** Switches the interface language once its texts are loaded. */
export async function setLanguage(lng: Language): Promise<void> {
  document.documentElement.lang = lng;
  await loadLanguage(lng).catch(() => undefined);
  if (i18n.language !== lng) await i18n.changeLanguage(lng);
}
