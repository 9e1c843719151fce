import 'i18next';
import type common from '../../locales/en/common.json';
import type workspace from '../../locales/en/workspace.json';
import type errors from '../../locales/en/errors.json';
import type site from '../../locales/en/site.json';

// Typed keys derived from en (the PWA helper's pwa/upload namespaces are typed loosely through fallback).
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: { common: typeof common; workspace: typeof workspace; errors: typeof errors; site: typeof site };
  }
}
