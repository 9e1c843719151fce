/** Promotions, subscription answers and analytics reports. */
import { Type } from 'typebox';
import { LEVELS } from '../domain/plans.js';
import { AUTH, EventRecorded, Id, Nullable, routeGroup } from './common.js';

const account = routeGroup('account', AUTH.token);
/** These GETs change state, so a cookie alone is refused (AUTH.tokenField). */
const CHANGES_STATE = 'Changes state, so the token must come as a query field: a cookie alone is refused.';

export const CountDown = account.post(
  '/api/v2/common/count_down',
  'The caller’s offer countdown (starts on the first call)',
  {
    data: Type.Object({ start_at: Type.Integer(), end_at: Type.Integer(), remaining_ms: Type.Integer() }),
  },
);

export const ShareCode = account.get('/api/promotion/share/code', 'The caller’s share code', {
  data: Type.Object({ code: Type.String() }),
});

/** Promotions a share code can be bound for. */
export const SHARE_TYPES = ['anniversary_2021'] as const;

export const ShareBind = account.get(
  '/api/promotion/share/bind',
  'Binds the caller to the owner of a share code (once per promotion)',
  {
    description: CHANGES_STATE,
    auth: AUTH.tokenField,
    fields: Type.Object({
      type: Type.Enum(SHARE_TYPES, { description: 'the promotion' }),
      code: Type.String({ maxLength: 40, description: 'the share code (8 letters and digits)' }),
    }),
    data: Type.Object({ bound: Type.Literal(true), type: Type.String(), code: Type.String() }),
    example: { type: 'anniversary_2021', code: 'K7M2Q9XA' },
  },
);

export const Checkin = account.get('/api/promotion/giveaway/checkin', 'The daily check-in (one per UTC day)', {
  description: CHANGES_STATE,
  auth: AUTH.tokenField,
  data: Type.Object({ day: Type.String(), new_checkin: Type.Boolean(), days: Type.Integer() }),
});

export const Product = Type.Object({
  id: Type.Integer(),
  level: Type.String(),
  price: Type.Record(Type.String(), Type.Number()),
});

export const SubscribeInfo = account.get('/api/v2/subscribe_info', 'The plans on sale and the caller’s plan', {
  auth: AUTH.tokenOrApi,
  data: Type.Object({
    products: Type.Array(Product),
    level: Type.Enum(LEVELS),
    subscribed: Type.Boolean(),
    expires_at: Nullable(Type.Integer()),
  }),
});

export const IsSubscribed = account.get(
  '/api/v2/is_subscribed',
  'Whether the signed-in caller is on a live paid plan',
  {
    fields: Type.Object({
      email: Type.Optional(Type.String({ maxLength: 320, description: 'must be the caller’s own address, when sent' })),
    }),
    data: Type.Object({ subscribed: Type.Boolean() }),
    example: { email: 'ada@example.com' },
  },
);

const Short = (description: string) => Type.Optional(Type.String({ maxLength: 64, description }));

export const CartAbandon = routeGroup('payments', AUTH.optionalToken).post(
  '/api/cart/abandon',
  'Records a checkout left on the pricing page',
  {
    fields: Type.Object({
      product_id: Type.Optional(Id({ description: 'a product of subscribe_info' })),
      currency: Short('the currency shown'),
      source: Short('utm source'),
      medium: Short('utm medium'),
    }),
    data: EventRecorded,
    example: { product_id: 2, currency: 'EUR' },
  },
);

/** The workspace's analytics events. */
export const REPORT_EVENTS = [
  'preview',
  'preview_drag',
  'download_all',
  'add_credits_popup',
  'add_image',
  'first_image_process',
] as const;

export const Report = routeGroup('misc', AUTH.optionalToken).post(
  '/api/report',
  'An analytics event of the workspace',
  {
    fields: Type.Object({
      event: Type.Enum(REPORT_EVENTS),
      data: Type.Optional(
        Type.Union(
          [
            Type.Object({}, { additionalProperties: true }),
            Type.String({ maxLength: 16 * 1024, description: 'the object as JSON text' }),
          ],
          { description: 'the event’s details: an object (or its JSON text)' },
        ),
      ),
      payload: Type.Optional(
        Type.Union([Type.Object({}, { additionalProperties: true }), Type.String({ maxLength: 16 * 1024 })], {
          description: 'the same as data (older clients)',
        }),
      ),
    }),
    data: EventRecorded,
    example: { event: 'add_image', data: { count: 3 } },
  },
);
