/** Tokens and credits: a guest token, binding a guest's work to a user, the licence and points. */
import { Type, type Static } from 'typebox';
import type { LicenseView as LicenseViewType } from '../../domain/account.js';
import { LEVELS } from '../../domain/plans.js';
import { AUTH, Nullable, defineRoute, type Same } from './common.js';

const TokenText = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

export const GuestToken = defineRoute({
  method: 'POST',
  url: '/api/v2/guest_token',
  tag: 'authenticate',
  summary: 'A new guest token (a guest account with a few free credits)',
  auth: AUTH.none,
  data: Type.Object({ token: Type.String({ description: 'send it as guest_token_v2' }) }),
});

const BindFields = Type.Object({
  token: Type.Optional(TokenText('the signed-in user’s token (or user_token)')),
  guest_token_v2: Type.Optional(TokenText('the guest token whose work moves to the user')),
});

export const BindToken = defineRoute({
  method: 'POST',
  url: '/api/v2/bind_token',
  tag: 'authenticate',
  summary: 'Moves a guest’s uploads, works and workflows to the signed-in user',
  auth: AUTH.tokenField,
  fields: BindFields,
  data: Type.Object({ moved_uploads: Type.Integer(), moved_jobs: Type.Integer() }),
  example: { token: 'u_…', guest_token_v2: 'g_…' },
});

export const UnbindToken = defineRoute({
  method: 'POST',
  url: '/api/v2/unbind_token',
  tag: 'authenticate',
  summary: 'Ends a guest token’s binding to the user',
  auth: AUTH.tokenField,
  fields: BindFields,
  data: Type.Null(),
  example: { token: 'u_…', guest_token_v2: 'g_…' },
});

export const Points = defineRoute({
  method: 'GET',
  url: '/api/v2/point',
  tag: 'account',
  summary: 'The caller’s credits',
  auth: AUTH.tokenOrApi,
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

export const License = defineRoute({
  method: 'POST',
  url: '/api/v2/license',
  tag: 'account',
  summary: 'The caller’s plan, credits and limits',
  auth: AUTH.tokenOrApi,
  data: LicenseView,
});
