/** Account form rules of spec §5 (register, profile), shared by the site pages and the server. */
import type { Level } from './plans.js';
import type { Reason } from './reasons.js';

const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 48;
export const NAME_MAX = 60;
export const OCCUPATION_OTHER_MAX = 100;
export const EMAIL_MAX = 254;

/**
 * Beside the HttpOnly session cookie, a cookie the page can read that says only "a session may exist"
 * (value 1, no secret): the client asks GET /api/account/me only when it is there, so a guest's page
 * load makes no call that must be refused (401).
 */
export const SIGNED_IN_COOKIE = 'pixmill_signed_in';

export const ACCOUNT_TEXT = {
  required: 'This field is required.',
  email: 'Please enter a valid email address.',
  emailTaken: 'This email address is already registered.',
  emailMissing: 'This email address does not exist.',
  password: 'The password must be 8 to 48 characters and contain both letters and numbers.',
  passwordMismatch: 'The two passwords do not match.',
  passwordSame: 'The new password must differ from the old password.',
  nameTooLong: 'The name is too long.',
  occupation: 'Please choose an occupation.',
  /** spec §5: the occupation survey needs at least one option */
  survey: 'Please select at least 1 option',
} as const;

/** The catalogue's reason (src/shared/domain/reasons.ts) of each form rule's text: the code the server answers beside it. */
export const ACCOUNT_REASON: Readonly<Record<keyof typeof ACCOUNT_TEXT, Reason>> = {
  required: 'fieldRequired',
  email: 'emailInvalid',
  emailTaken: 'emailTaken',
  emailMissing: 'emailUnknown',
  password: 'passwordWeak',
  passwordMismatch: 'passwordMismatch',
  passwordSame: 'passwordSame',
  nameTooLong: 'nameTooLong',
  occupation: 'occupationRequired',
  survey: 'surveyRequired',
};

/** Occupation choices of the profile survey; 'other' needs a free text. */
export const OCCUPATIONS = [
  'photographer',
  'designer',
  'marketing',
  'ecommerce',
  'developer',
  'student',
  'personal',
  'other',
] as const;

const EMAIL =
  /^[^\s@"'<>()[\],;:\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export function emailError(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.trim() === '') return ACCOUNT_TEXT.required;
  const e = raw.trim();
  return e.length <= EMAIL_MAX && EMAIL.test(e) ? null : ACCOUNT_TEXT.email;
}

/** 8–48 characters with at least one letter and one digit; spaces are not allowed. */
export function passwordError(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw === '') return ACCOUNT_TEXT.required;
  if (
    raw.length < PASSWORD_MIN ||
    raw.length > PASSWORD_MAX ||
    /\s/.test(raw) ||
    !/\p{L}/u.test(raw) ||
    !/\p{N}/u.test(raw)
  )
    return ACCOUNT_TEXT.password;
  return null;
}

export type FieldErrors = Record<string, string>;

/** Register form: email, password, confirm_password. Empty object = valid. */
export function registerErrors(f: { email?: unknown; password?: unknown; confirm_password?: unknown }): FieldErrors {
  const out: FieldErrors = {};
  const e = emailError(f.email);
  if (e) out.email = e;
  const p = passwordError(f.password);
  if (p) out.password = p;
  if (typeof f.confirm_password !== 'string' || f.confirm_password === '') out.confirm_password = ACCOUNT_TEXT.required;
  else if (!p && f.confirm_password !== f.password) out.confirm_password = ACCOUNT_TEXT.passwordMismatch;
  return out;
}

/** Profile form: first_name, last_name, occupation (one of OCCUPATIONS), occupation_other when 'other'. */
export function profileErrors(f: {
  first_name?: unknown;
  last_name?: unknown;
  occupation?: unknown;
  occupation_other?: unknown;
}): FieldErrors {
  const out: FieldErrors = {};
  for (const k of ['first_name', 'last_name'] as const) {
    const v = f[k];
    if (typeof v !== 'string' || v.trim() === '') out[k] = ACCOUNT_TEXT.required;
    else if (v.trim().length > NAME_MAX) out[k] = ACCOUNT_TEXT.nameTooLong;
  }
  if (typeof f.occupation !== 'string' || f.occupation === '') out.occupation = ACCOUNT_TEXT.required;
  else if (!(OCCUPATIONS as readonly string[]).includes(f.occupation)) out.occupation = ACCOUNT_TEXT.occupation;
  else if (f.occupation === 'other') {
    const o = f.occupation_other;
    if (typeof o !== 'string' || o.trim() === '') out.occupation_other = ACCOUNT_TEXT.required;
    else if (o.trim().length > OCCUPATION_OTHER_MAX) out.occupation_other = ACCOUNT_TEXT.nameTooLong;
  }
  return out;
}

/** Change-password form: the old password, a new one (same rule as register) that differs, and its confirmation. */
export function changePasswordErrors(f: {
  old_password?: unknown;
  password?: unknown;
  confirm_password?: unknown;
}): FieldErrors {
  const out: FieldErrors = {};
  if (typeof f.old_password !== 'string' || f.old_password === '') out.old_password = ACCOUNT_TEXT.required;
  const p = passwordError(f.password);
  if (p) out.password = p;
  else if (f.password === f.old_password) out.password = ACCOUNT_TEXT.passwordSame;
  if (typeof f.confirm_password !== 'string' || f.confirm_password === '') out.confirm_password = ACCOUNT_TEXT.required;
  else if (!p && f.confirm_password !== f.password) out.confirm_password = ACCOUNT_TEXT.passwordMismatch;
  return out;
}

/** Occupation survey: one or more OCCUPATIONS; 'other' needs its free text. Accepts an array or a comma list. */
export function surveyChoices(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
  return [...new Set(list.map((v) => String(v).trim()).filter(Boolean))];
}

export function surveyErrors(f: { occupations?: unknown; occupation_other?: unknown }): FieldErrors {
  const out: FieldErrors = {};
  const choices = surveyChoices(f.occupations);
  if (choices.length === 0) out.occupations = ACCOUNT_TEXT.survey;
  else if (choices.some((c) => !(OCCUPATIONS as readonly string[]).includes(c)))
    out.occupations = ACCOUNT_TEXT.occupation;
  else if (choices.includes('other')) {
    const o = f.occupation_other;
    if (typeof o !== 'string' || o.trim() === '') out.occupation_other = ACCOUNT_TEXT.required;
    else if (o.trim().length > OCCUPATION_OTHER_MAX) out.occupation_other = ACCOUNT_TEXT.nameTooLong;
  }
  return out;
}

/** GET /api/account/me: the account as the server shows it to its owner. */
/** POST /api/v2/license (spec §7): the account's plan facts, server view and client pages. */
export interface LicenseView {
  user_id: number;
  pid: number;
  is_expired: boolean;
  max_num: number;
  used_num: number;
  user_level: Level;
  first_name: string;
  last_name: string;
  occupation: string;
  /** max_num − used_num floored at 0 */
  left_credits: number;
  /** spec §9: warn at 4 credits left — once some were spent (plans.ts creditStanding) */
  low_credit_warning: boolean;
  compress_max: number;
  compress_used: number;
  plan_expires_at: number | null;
}

export interface AccountView {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  occupation: string;
  occupation_other: string;
  pid: number;
  level: string;
  max_num: number;
  used_num: number;
  plan_expires_at: number | null;
  /** occupation survey answers */
  survey: string[];
}
