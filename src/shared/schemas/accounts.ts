/** Accounts: sign-up, login, logout, the account, password, profile, survey and user settings. */
import { Type, type Static } from 'typebox';
import type { AccountView as AccountViewType } from '../domain/account.js';
import { LANGUAGES } from '../domain/locale.js';

/** The currencies prices are shown in. */
export const CURRENCIES = ['USD', 'EUR', 'JPY'] as const;
import { AUTH, FormText, Nullable, routeGroup, type Same } from './common.js';

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
export const LoggedIn = Type.Object({
  ...AccountView.properties,
  user_token: Type.String({ description: 'send it as user_token' }),
});

const FORM_LIMIT = 'At most 30 requests per minute per client address; wrong passwords lock the address for a while.';
const Email = FormText('the address');
const Password = FormText('the password (8 characters or more, letters and digits)');

const authenticate = routeGroup('authenticate', AUTH.none);
const account = routeGroup('account', AUTH.signedIn);

export const Register = authenticate.post(
  '/api/account/register',
  'Creates an account and signs in (sets the session cookie)',
  {
    description: `Form errors answer code 1 with a text per field in data.errors. ${FORM_LIMIT}`,
    from: 'body',
    fields: Type.Object({ email: Email, password: Password, confirm_password: Password }),
    data: LoggedIn,
    example: { email: 'ada@example.com', password: 'correct-horse-9', confirm_password: 'correct-horse-9' },
  },
);

export const Login = authenticate.post(
  '/api/account/login',
  'Signs in (sets the session cookie) and answers a user token',
  {
    description: `Code 2: no such user; code 3: wrong password. ${FORM_LIMIT}`,
    from: 'body',
    fields: Type.Object({ email: Email, password: Password }),
    data: LoggedIn,
    example: { email: 'ada@example.com', password: 'correct-horse-9' },
  },
);

export const Logout = authenticate.post(
  '/api/account/logout',
  'Ends the session and the user token sent; unbinds the guest token sent',
  {
    auth: AUTH.optionalSession,
    fields: Type.Object({
      guest_token_v2: Type.Optional(
        Type.String({ maxLength: 200, description: 'a guest token to unbind (else the guest_token cookie)' }),
      ),
    }),
    data: Type.Null(),
  },
);

export const Me = account.get('/api/account/me', 'The signed-in account', { auth: AUTH.session, data: AccountView });

export const ChangePassword = account.post(
  '/api/account/password',
  'Changes the password; every other session and user token ends',
  {
    from: 'body',
    fields: Type.Object({ old_password: Password, password: Password, confirm_password: Password }),
    data: Type.Object({ user_token: Type.String({ description: 'the caller’s new user token' }) }),
    example: { old_password: 'correct-horse-9', password: 'battery-staple-7', confirm_password: 'battery-staple-7' },
  },
);

export const SurveySet = account.post('/api/v2/survey/set', 'The occupation survey: one or more occupations', {
  fields: Type.Object({
    occupations: Type.Optional(
      Type.Union([Type.String({ maxLength: 1000 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })], {
        description: 'occupations (a list, or a comma-separated text)',
      }),
    ),
    occupation_other: FormText('the free text when other is chosen'),
  }),
  data: Type.Object({ survey: Type.Array(Type.String()) }),
  example: { occupations: ['photographer', 'other'], occupation_other: 'Archivist' },
});

/** The profile's names, as ProfileSet and UserInfoUpdate take them (form texts) and answer them. */
const NameFields = { first_name: FormText('first name'), last_name: FormText('last name') };
const Names = { first_name: Type.String(), last_name: Type.String() };

export const ProfileSet = account.post('/api/v2/profile/set', 'Sets the profile: names and occupation', {
  auth: AUTH.token,
  fields: Type.Object({
    ...NameFields,
    occupation: FormText('occupation'),
    occupation_other: FormText('the free text when occupation is other'),
  }),
  data: Type.Object({ ...Names, occupation: Type.String(), occupation_other: Type.String() }),
  example: { first_name: 'Ada', last_name: 'Lovelace', occupation: 'photographer' },
});

export const UserInfoUpdate = account.post(
  '/api/v2/user_info/update',
  'Language and currency (anyone), names (signed-in users); only the fields sent change',
  {
    auth: AUTH.token,
    fields: Type.Object({
      locale: Type.Optional(Type.Enum(LANGUAGES, { description: 'the site language' })),
      currency: Type.Optional(Type.Enum(CURRENCIES, { description: 'the currency prices are shown in' })),
      ...NameFields,
    }),
    data: Type.Object({ locale: Type.String(), currency: Type.String(), ...Names }),
    example: { locale: 'de', currency: 'EUR' },
  },
);
