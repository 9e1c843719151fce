/**
 * API credit packs: what a developer buys to call the processing API with an API token (docs/api.md).
 * One pack adds its credits to the account's balance (the same credits the workspace spends: one per
 * processed image) and makes the account an API customer, which may hold an API token without a Pro
 * subscription. Prices are one-off (not a subscription), in USD and EUR. The checkout's
 * `api_plan` parameter names a pack by `name`; `productId` is its id in checkouts and at the payment
 * provider (STRIPE_PRICE_<productId>_<currency>), next to the plans' PRODUCTS in constants.ts.
 */
export const API_PLAN_CURRENCIES = ['USD', 'EUR'] as const;
export type ApiPlanCurrency = (typeof API_PLAN_CURRENCIES)[number];

export interface ApiPlan {
  name: string;
  productId: number;
  credits: number;
  price: Readonly<Record<ApiPlanCurrency, number>>;
}

export const API_PLANS: readonly ApiPlan[] = [
  { name: 'api_500', productId: 607001, credits: 500, price: { USD: 19, EUR: 19 } },
  { name: 'api_2000', productId: 607002, credits: 2000, price: { USD: 59, EUR: 55 } },
  { name: 'api_10000', productId: 607003, credits: 10000, price: { USD: 249, EUR: 229 } },
] as const;

/** The level written on a checkout that buys an API pack (plan checkouts carry 'basic' or 'pro'). */
export const API_PLAN_LEVEL = 'api';

export function apiPlanNamed(name: unknown): ApiPlan | undefined {
  return typeof name === 'string' ? API_PLANS.find((p) => p.name === name) : undefined;
}

export function apiPlanOfProduct(productId: number): ApiPlan | undefined {
  return API_PLANS.find((p) => p.productId === productId);
}

export function isApiPlanCurrency(v: unknown): v is ApiPlanCurrency {
  return (API_PLAN_CURRENCIES as readonly unknown[]).includes(v);
}

/** The price of one credit in a pack, rounded to a tenth of a cent (the pricing section shows it). */
export function pricePerCredit(plan: ApiPlan, currency: ApiPlanCurrency): number {
  return Math.round((plan.price[currency] / plan.credits) * 1000) / 1000;
}

/** The API token's visible form after creation: its prefix and last four characters. */
export const API_TOKEN_PREFIX = 'pxm_';
export function maskApiToken(hint: string): string {
  return `${API_TOKEN_PREFIX}…${hint}`;
}

/** Calls a minute one API token may make (per API process); beyond it a call answers HTTP 429. */
export const API_TOKEN_RATE_LIMIT_PER_MINUTE = 120;

/**
 * What an account's API token rests on: a Pro subscription, an API credit pack, or neither ('free': every
 * registered account may hold a key; its previews are free up to API_FREE_PREVIEWS_PER_MONTH, full size takes credits).
 */
export type ApiEntitlement = 'pro' | 'api_plan' | 'free';

/** The largest result of `size=preview`, in megapixels (remove.bg's preview: 0.25 MP). */
export const API_PREVIEW_MEGAPIXELS = 0.25;
/** Previews that cost no credit, per account and calendar month (UTC): the default of API_FREE_PREVIEWS_PER_MONTH. */
export const API_FREE_PREVIEWS_PER_MONTH = 50;
/**
 * The result sizes the developer API takes: `auto` (default) scales a photo over the caller's plan down to it,
 * as the web app does, and says so (X-Input-Downscaled); `full` refuses it instead; `preview` scales the input so
 * the result is at most API_PREVIEW_MEGAPIXELS (free up to the monthly number).
 */
export const API_SIZES = ['auto', 'preview', 'full'] as const;
export type ApiSize = (typeof API_SIZES)[number];
/** The first retry of a webhook delivery after this many ms, each later one 4× the last: the default of API_WEBHOOK_RETRY_MS. */
export const API_WEBHOOK_RETRY_MS = 10_000;
/** The smallest pack: what a refusal for want of credits names (data.api_plan). */
export const SMALLEST_API_PLAN = API_PLANS[0]!.name;
