import 'i18next';
import type account from '../../locales/en/account.json';
import type common from '../../locales/en/common.json';
import type errors from '../../locales/en/errors.json';
import type pwa from '../../locales/en/pwa.json';
import type reasons from '../../locales/en/reasons.json';
import type site from '../../locales/en/site.json';
import type upload from '../../locales/en/upload.json';
import type workspace from '../../locales/en/workspace.json';

/** Every namespace's keys, derived from en (Excalidraw's practice): a missing or misspelt key fails the typecheck. */
export interface Resources {
  account: typeof account;
  common: typeof common;
  errors: typeof errors;
  pwa: typeof pwa;
  reasons: typeof reasons;
  site: typeof site;
  upload: typeof upload;
  workspace: typeof workspace;
}

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: Resources;
  }
}
