/** The account namespace (locales/<lng>/account.json) and the mapping of the server's form texts to its keys. */
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { KeyOf } from '../../i18n/keys.js';
import { ApiError } from '../../api/client.js';
import { errorText, reasonText } from '../../app/handleError.js';
import { ACCOUNT_TEXT } from '../../shared/domain/account.js';
import { CODE, CODE_TEXT } from '../../shared/domain/codes.js';

export type AT = TFunction<'account'>;

/** `t` of the account namespace (typed keys); re-renders on language change. */
export function useAccountT(): AT {
  return useTranslation('account').t;
}

/** Shared rule texts (src/shared/domain/account.ts, in English on both sides) → translation keys: the one map for every form. */
const KEYS: Record<string, KeyOf<'account'>> = {
  [ACCOUNT_TEXT.required]: 'errors.required',
  [ACCOUNT_TEXT.email]: 'errors.email',
  [ACCOUNT_TEXT.emailTaken]: 'errors.emailTaken',
  [ACCOUNT_TEXT.emailMissing]: 'errors.emailMissing',
  [ACCOUNT_TEXT.password]: 'errors.password',
  [ACCOUNT_TEXT.passwordMismatch]: 'errors.mismatch',
  [ACCOUNT_TEXT.passwordSame]: 'errors.same',
  [ACCOUNT_TEXT.nameTooLong]: 'errors.tooLong',
  [ACCOUNT_TEXT.occupation]: 'errors.occupation',
  [ACCOUNT_TEXT.survey]: 'errors.survey',
  [CODE_TEXT[CODE.WRONG_PASSWORD]]: 'errors.wrongPassword',
};

/** Whether a server text is one of the shared form rules (then it belongs under its field). */
export function isAccountText(text: string): boolean {
  return Object.hasOwn(KEYS, text);
}

export function fieldText(t: AT, text: string): string {
  const k = KEYS[text];
  return k ? t(k) : text;
}

export function translateErrors(t: AT, errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).map(([f, text]) => [f, fieldText(t, text)]));
}

/**
 * A failed form call: each field's reason from `data.reasons` (code 1; its text from `data.errors` where
 * this client has no text for the reason), else one message for the whole form.
 */
export function formFailure(t: AT, e: unknown): { fields: Record<string, string>; message: string | null } {
  if (e instanceof ApiError) {
    const { errors: errs, reasons } = (e.data ?? {}) as {
      errors?: Record<string, string>;
      reasons?: Record<string, string>;
    };
    if (reasons && Object.keys(reasons).length)
      return {
        fields: Object.fromEntries(
          Object.entries(reasons).map(([f, reason]) => [f, reasonText({ reason }) ?? fieldText(t, errs?.[f] ?? '')]),
        ),
        message: null,
      };
    if (errs && Object.keys(errs).length) return { fields: translateErrors(t, errs), message: null };
    if (e.code === CODE.WRONG_PASSWORD) return { fields: {}, message: t('errors.wrongPassword') };
  }
  return { fields: {}, message: errorText(e) };
}
