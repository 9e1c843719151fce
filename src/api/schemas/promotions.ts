/** Promotions, subscription answers and analytics reports. */
import { Type } from 'typebox';
import { LEVELS } from '../../domain/plans.js';
import { AUTH, Nullable, defineRoute } from './common.js';

export const CountDown = defineRoute({
  method: 'POST',
  url: '/api/v2/common/count_down',
  tag: 'account',
  summary: 'The caller’s offer countdown (starts on the first call)',
  auth: AUTH.token,
  data: Type.Object({ start_at: Type.Integer(), end_at: Type.Integer(), remaining_ms: Type.Integer() }),
});

export const ShareCode = defineRoute({
  method: 'GET',
  url: '/api/promotion/share/code',
  tag: 'account',
  summary: 'The caller’s share code',
  auth: AUTH.token,
  data: Type.Object({ code: Type.String() }),
});

/** Promotions a share code can be bound for. */
export const SHARE_TYPES = ['anniversary_2021'] as const;

export const ShareBind = defineRoute({
  method: 'GET',
  url: '/api/promotion/share/bind',
  tag: 'account',
  summary: 'Binds the caller to the owner of a share code (once per promotion)',
  description: 'Changes state, so the token must come as a query field: a cookie alone is refused.',
  auth: AUTH.tokenField,
  fields: Type.Object({ type: Type.Enum(SHARE_TYPES, { description: 'the promotion' }), code: Type.String({ maxLength: 40, description: 'the share code (8 letters and digits)' }) }),
  data: Type.Object({ bound: Type.Literal(true), type: Type.String(), code: Type.String() }),
  example: { type: 'anniversary_2021', code: 'K7M2Q9XA' },
});

export const Checkin = defineRoute({
  method: 'GET',
  url: '/api/promotion/giveaway/checkin',
  tag: 'account',
  summary: 'The daily check-in (one per UTC day)',
  description: 'Changes state, so the token must come as a query field: a cookie alone is refused.',
  auth: AUTH.tokenField,
  data: Type.Object({ day: Type.String(), new_checkin: Type.Boolean(), days: Type.Integer() }),
});

export const Product = Type.Object({ id: Type.Integer(), level: Type.String(), price: Type.Record(Type.String(), Type.Number()) });

export const SubscribeInfo = defineRoute({
  method: 'GET',
  url: '/api/v2/subscribe_info',
  tag: 'account',
  summary: 'The plans on sale and the caller’s plan',
  auth: AUTH.tokenOrApi,
  data: Type.Object({ products: Type.Array(Product), level: Type.Enum(LEVELS), subscribed: Type.Boolean(), expires_at: Nullable(Type.Integer()) }),
});

export const IsSubscribed = defineRoute({
  method: 'GET',
  url: '/api/v2/is_subscribed',
  tag: 'account',
  summary: 'Whether the signed-in caller is on a live paid plan',
  auth: AUTH.token,
  fields: Type.Object({ email: Type.Optional(Type.String({ maxLength: 320, description: 'must be the caller’s own address, when sent' })) }),
  data: Type.Object({ subscribed: Type.Boolean() }),
  example: { email: 'ada@example.com' },
});

const Short = (description: string) => Type.Optional(Type.String({ maxLength: 64, description }));

export const CartAbandon = defineRoute({
  method: 'POST',
  url: '/api/cart/abandon',
  tag: 'payments',
  summary: 'Records a checkout left on the pricing page',
  auth: AUTH.optionalToken,
  fields: Type.Object({ product_id: Type.Optional(Type.Integer({ minimum: 1, description: 'a product of subscribe_info' })), currency: Short('the currency shown'), source: Short('utm source'), medium: Short('utm medium') }),
  data: Type.Object({ event_id: Type.Integer() }),
  example: { product_id: 2, currency: 'EUR' },
});

/** The workspace's analytics events. */
export const REPORT_EVENTS = ['preview', 'preview_drag', 'download_all', 'add_credits_popup', 'add_image', 'first_image_process'] as const;

export const Report = defineRoute({
  method: 'POST',
  url: '/api/report',
  tag: 'misc',
  summary: 'An analytics event of the workspace',
  auth: AUTH.optionalToken,
  fields: Type.Object({
    event: Type.Enum(REPORT_EVENTS),
    data: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.String({ maxLength: 16 * 1024, description: 'the object as JSON text' })], { description: 'the event’s details: an object (or its JSON text)' })),
    payload: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.String({ maxLength: 16 * 1024 })], { description: 'the same as data (older clients)' })),
  }),
  data: Type.Object({ event_id: Type.Integer() }),
  example: { event: 'add_image', data: { count: 3 } },
});
