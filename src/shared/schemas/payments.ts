/**
 * Payments (spec §3 plans, §7 "GET checkout with email, api_plan"): whether this server sells, plan
 * and API-pack checkouts through the configured provider, the local provider's pay step and the
 * providers' webhooks.
 */
import { Type, type Static } from 'typebox';
import { API_PLANS, API_PLAN_CURRENCIES } from '../domain/apiPlans.js';
import { PRODUCTS } from '../domain/constants.js';
import { AUTH, routeGroup } from './common.js';

/** One of these values (an enum in the document; a value outside it is 10001 naming the field), typed as their union. */
const literals = <T extends string | number>(values: readonly T[], description: string) =>
  Type.Unsafe<T>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      { description },
    ),
  );

export const CheckoutId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'a checkout’s id',
  examples: ['0d6f5a4e-2b61-4f0c-9b1d-7e5e2f8c9a10'],
});

export const CheckoutData = Type.Object({
  checkout_id: CheckoutId,
  provider: Type.String({ description: 'local or stripe', examples: ['stripe'] }),
  product_id: Type.Integer({ description: 'the plan’s or API pack’s product id' }),
  level: Type.String({ description: 'basic, pro, or api for an API credit pack' }),
  amount: Type.Number({ description: 'the price in the currency’s units' }),
  currency: Type.String({ examples: ['USD'] }),
  status: Type.Union([Type.Literal('open'), Type.Literal('paid'), Type.Literal('cancelled')]),
  url: Type.String({ description: 'where the browser pays' }),
});
export type CheckoutData = Static<typeof CheckoutData>;

const payments = routeGroup('payments', AUTH.signedIn);
/** A checkout named by its id, and an example of it. */
const OneCheckout = Type.Object({ id: CheckoutId });
const CHECKOUT = { id: '0d6f5a4e-2b61-4f0c-9b1d-7e5e2f8c9a10' };
/** What a delivered payment event did. */
const EventApplied = {
  event_id: Type.String(),
  type: Type.String(),
  applied: Type.Boolean(),
  duplicate: Type.Boolean(),
};

export const PaymentsConfig = payments.get(
  '/api/payments/config',
  'Whether this server sells plans, and through which provider',
  {
    auth: AUTH.none,
    data: Type.Object({ purchasing: Type.Boolean(), provider: Type.String({ examples: ['none', 'local', 'stripe'] }) }),
  },
);

export const CreateCheckout = payments.post('/api/payments/checkout', 'Opens a checkout for a plan (Basic or Pro)', {
  description:
    'For a signed-in account with an email (else code 6). Without a payment provider: code 10001 with data.error "purchasing_disabled".',
  fields: Type.Object({
    product_id: literals(
      PRODUCTS.map((p) => p.id),
      PRODUCTS.map((p) => `${p.id} ${p.level}`).join(', '),
    ),
    currency: Type.Optional(
      literals(['USD', 'EUR', 'JPY'], 'USD, EUR or JPY; the account’s currency (else its language’s) when absent'),
    ),
    locale: Type.Optional(Type.String({ maxLength: 8, description: 'the language of the checkout page' })),
    source: Type.Optional(
      Type.String({ maxLength: 200, description: 'where the buyer came from (kept, first 64 characters)' }),
    ),
    medium: Type.Optional(Type.String({ maxLength: 200 })),
  }),
  data: CheckoutData,
  example: { product_id: PRODUCTS[1].id, currency: 'USD' },
});

export const GetCheckout = payments.get('/api/payments/checkout', 'One of the caller’s checkouts', {
  fields: OneCheckout,
  data: CheckoutData,
  example: CHECKOUT,
});

export const PayLocal = payments.post(
  '/api/payments/local/pay',
  'The local provider’s pay step (PAYMENT_PROVIDER=local only)',
  {
    fields: OneCheckout,
    data: Type.Object({ ...EventApplied, checkout: CheckoutData }),
    example: CHECKOUT,
  },
);

export const PaymentWebhook = payments.post(
  '/api/payments/webhook/:provider',
  'A payment provider’s signed event delivery',
  {
    description:
      'The raw body is verified against the provider’s signature header (stripe-signature, pixmill-signature); each event id is applied once.',
    auth: AUTH.none,
    params: Type.Object({ provider: Type.String({ maxLength: 32, examples: ['stripe'] }) }),
    data: Type.Object(EventApplied),
  },
);

export const ApiCheckout = payments.get('/api/v2/checkout', 'Opens a checkout for an API credit pack', {
  description:
    'For the signed-in account whose address `email` is (the user_token field; a cookie alone is not taken, as this GET opens a checkout). ' +
    'No token: code 6. Another address: code 10001 naming `email`. An unknown pack: code 10001 naming `api_plan`. ' +
    `Packs: ${API_PLANS.map((p) => `${p.name} (${p.credits} credits, USD ${p.price.USD} / EUR ${p.price.EUR})`).join(', ')}. ` +
    'The pack’s credits are added when the provider reports the payment.',
  auth: AUTH.tokenField,
  fields: Type.Object({
    email: Type.String({ minLength: 3, maxLength: 254, description: 'the signed-in account’s email address' }),
    api_plan: literals(
      API_PLANS.map((p) => p.name),
      'the API credit pack',
    ),
    currency: Type.Optional(
      literals(API_PLAN_CURRENCIES, 'USD or EUR; the account’s currency when it is one of them, else by its language'),
    ),
  }),
  data: CheckoutData,
  example: { email: 'dev@example.com', api_plan: API_PLANS[1]!.name, currency: 'USD' },
});
