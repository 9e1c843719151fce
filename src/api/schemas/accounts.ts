/** Accounts: sign-up, login, logout, the account, password, profile, survey and user settings. */
import { Type, type Static } from 'typebox';
import type { AccountView as AccountViewType } from '../../domain/account.js';
import { LANGUAGES } from '../../domain/locale.js';

/** The currencies prices are shown in. */
export const CURRENCIES = ['USD', 'EUR', 'JPY'] as const;
import { AUTH, FormText, Nullable, defineRoute, type Same } from './common.js';

export const AccountView = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  occupation: Type.String(),
  occupation_other: Type.String(),
  pid: Type.Integer(),
  level: Type.String({ description: 'guest, register, basic, pro or expired' }),
  max_num: Type.Integer(),
  used_num: Type.Integer(),
  plan_expires_at: Nullable(Type.Integer()),
  survey: Type.Array(Type.String(), { description: 'occupation survey answers' }),
});
export const accountViewIsTheDomainType: Same<Static<typeof AccountView>, AccountViewType> = true;
/** The account and the user token handed to the new session. */
export const LoggedIn = Type.Object({ ...AccountView.properties, user_token: Type.String({ description: 'send it as user_token' }) });

const FORM_LIMIT = 'At most 30 requests per minute per client address; wrong passwords lock the address for a while.';
const Email = FormText('the address');
const Password = FormText('the password (8 characters or more, letters and digits)');

export const Register = defineRoute({
  method: 'POST',
  url: '/api/account/register',
  tag: 'authenticate',
  summary: 'Creates an account and signs in (sets the session cookie)',
  description: `Form errors answer code 1 with a text per field in data.errors. ${FORM_LIMIT}`,
  auth: AUTH.none,
  from: 'body',
  fields: Type.Object({ email: Email, password: Password, confirm_password: Password }),
  data: LoggedIn,
  example: { email: 'ada@example.com', password: 'correct-horse-9', confirm_password: 'correct-horse-9' },
});

export const Login = defineRoute({
  method: 'POST',
  url: '/api/account/login',
  tag: 'authenticate',
  summary: 'Signs in (sets the session cookie) and answers a user token',
  description: `Code 2: no such user; code 3: wrong password. ${FORM_LIMIT}`,
  auth: AUTH.none,
  from: 'body',
  fields: Type.Object({ email: Email, password: Password }),
  data: LoggedIn,
  example: { email: 'ada@example.com', password: 'correct-horse-9' },
});

export const Logout = defineRoute({
  method: 'POST',
  url: '/api/account/logout',
  tag: 'authenticate',
  summary: 'Ends the session and the user token sent; unbinds the guest token sent',
  auth: AUTH.optionalSession,
  fields: Type.Object({ guest_token_v2: Type.Optional(Type.String({ maxLength: 200, description: 'a guest token to unbind (else the guest_token cookie)' })) }),
  data: Type.Null(),
});

export const Me = defineRoute({
  method: 'GET',
  url: '/api/account/me',
  tag: 'account',
  summary: 'The signed-in account',
  auth: AUTH.session,
  data: AccountView,
});

export const ChangePassword = defineRoute({
  method: 'POST',
  url: '/api/account/password',
  tag: 'account',
  summary: 'Changes the password; every other session and user token ends',
  auth: AUTH.signedIn,
  from: 'body',
  fields: Type.Object({ old_password: Password, password: Password, confirm_password: Password }),
  data: Type.Object({ user_token: Type.String({ description: 'the caller’s new user token' }) }),
  example: { old_password: 'correct-horse-9', password: 'battery-staple-7', confirm_password: 'battery-staple-7' },
});

export const SurveySet = defineRoute({
  method: 'POST',
  url: '/api/v2/survey/set',
  tag: 'account',
  summary: 'The occupation survey: one or more occupations',
  auth: AUTH.signedIn,
  fields: Type.Object({
    occupations: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })], { description: 'occupations (a list, or a comma-separated text)' })),
    occupation_other: FormText('the free text when other is chosen'),
  }),
  data: Type.Object({ survey: Type.Array(Type.String()) }),
  example: { occupations: ['photographer', 'other'], occupation_other: 'Archivist' },
});

export const ProfileSet = defineRoute({
  method: 'POST',
  url: '/api/v2/profile/set',
  tag: 'account',
  summary: 'Sets the profile: names and occupation',
  auth: AUTH.token,
  fields: Type.Object({ first_name: FormText('first name'), last_name: FormText('last name'), occupation: FormText('occupation'), occupation_other: FormText('the free text when occupation is other') }),
  data: Type.Object({ first_name: Type.String(), last_name: Type.String(), occupation: Type.String(), occupation_other: Type.String() }),
  example: { first_name: 'Ada', last_name: 'Lovelace', occupation: 'photographer' },
});

export const UserInfoUpdate = defineRoute({
  method: 'POST',
  url: '/api/v2/user_info/update',
  tag: 'account',
  summary: 'Language and currency (anyone), names (signed-in users); only the fields sent change',
  auth: AUTH.token,
  fields: Type.Object({
    locale: Type.Optional(Type.Enum(LANGUAGES, { description: 'the site language' })),
    currency: Type.Optional(Type.Enum(CURRENCIES, { description: 'the currency prices are shown in' })),
    first_name: FormText('first name'),
    last_name: FormText('last name'),
  }),
  data: Type.Object({ locale: Type.String(), currency: Type.String(), first_name: Type.String(), last_name: Type.String() }),
  example: { locale: 'de', currency: 'EUR' },
});
