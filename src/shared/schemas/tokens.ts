/** Tokens and credits: a guest token, binding a guest's work to a user, the licence and points. */
import { Type, type Static } from 'typebox';
import type { LicenseView as LicenseViewType } from '../domain/account.js';
import { LEVELS } from '../domain/plans.js';
import { AUTH, Nullable, routeGroup, type Same } from './common.js';

const TokenText = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

const authenticate = routeGroup('authenticate', AUTH.tokenField);
const account = routeGroup('account', AUTH.tokenOrApi);

export const GuestToken = authenticate.post(
  '/api/v2/guest_token',
  'A new guest token (a guest account with a few free credits)',
  {
    auth: AUTH.none,
    data: Type.Object({ token: Type.String({ description: 'send it as guest_token_v2' }) }),
  },
);

/** The fields of binding and unbinding, and an example of them. */
const BindFields = Type.Object({
  token: Type.Optional(TokenText('the signed-in user’s token (or user_token)')),
  guest_token_v2: Type.Optional(TokenText('the guest token whose work moves to the user')),
});
const BIND_EXAMPLE = { token: 'u_…', guest_token_v2: 'g_…' };

export const BindToken = authenticate.post(
  '/api/v2/bind_token',
  'Moves a guest’s uploads, works and workflows to the signed-in user',
  {
    fields: BindFields,
    data: Type.Object({ moved_uploads: Type.Integer(), moved_jobs: Type.Integer() }),
    example: BIND_EXAMPLE,
  },
);

export const UnbindToken = authenticate.post('/api/v2/unbind_token', 'Ends a guest token’s binding to the user', {
  fields: BindFields,
  data: Type.Null(),
  example: BIND_EXAMPLE,
});

export const Points = account.get('/api/v2/point', 'The caller’s credits', {
  data: Type.Object({ max_num: Type.Integer(), used_num: Type.Integer(), left_credits: Type.Integer() }),
});

export const LicenseView = Type.Object({
  user_id: Type.Integer(),
  pid: Type.Integer(),
  is_expired: Type.Boolean(),
  max_num: Type.Integer({ description: 'credits granted' }),
  used_num: Type.Integer({ description: 'credits spent' }),
  user_level: Type.Enum(LEVELS),
  first_name: Type.String(),
  last_name: Type.String(),
  occupation: Type.String(),
  left_credits: Type.Integer(),
  low_credit_warning: Type.Boolean({ description: 'few credits left, once some were spent' }),
  compress_max: Type.Integer(),
  compress_used: Type.Integer(),
  plan_expires_at: Nullable(Type.Integer({ description: 'ms since 1970' })),
});
export const licenseViewIsTheDomainType: Same<Static<typeof LicenseView>, LicenseViewType> = true;

export const License = account.post('/api/v2/license', 'The caller’s plan, credits and limits', {
  data: LicenseView,
});
