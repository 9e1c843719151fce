/**
 * Plans and payment (spec §3 Products): checkouts go through a PaymentProvider; the provider tells us
 * about payments by webhook. A webhook is trusted only when its HMAC signature verifies, and each
 * provider event id is applied once: the event row and its effect commit in one transaction, so a
 * replayed (or concurrently re-delivered) event changes nothing.
 *
 * The built-in provider is "local": its checkout page is served by Pixmill itself (/checkout/) and
 * its "pay" step produces a signed event that goes through the very same webhook path. A real
 * provider (Stripe, Paddle, …) plugs in behind the same PaymentProvider interface: its checkoutUrl
 * creates a hosted session and its verifyWebhook checks that provider's signature with its secret.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { CODE } from '../../src/domain/codes.js';
import type { CheckoutView } from '../../src/domain/plans.js';
import { PLAN_PERIOD_DAYS, PRODUCTS } from '../../src/domain/constants.js';
import { ApiError, notFound, paramError, unauthorized } from '../errors.js';
import { serverSecret } from '../repositories/secrets.js';
import { CURRENCIES, LOCALES } from './accounts.js';
import type { Deps } from './index.js';
import type { Principal } from './tokens.js';

export type Currency = (typeof CURRENCIES)[number];
export type Product = (typeof PRODUCTS)[number];

export const PAYMENT_EVENT_TYPES = ['checkout.completed', 'checkout.cancelled', 'subscription.renewed', 'subscription.expired'] as const;
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

/** What a provider reports, after its signature was verified. */
export interface PaymentEvent {
  /** the provider's event id (idempotency key) */
  id: string;
  type: PaymentEventType;
  checkout_id?: string;
  account_id?: number;
  created: number;
}

export interface CheckoutRequest {
  checkoutId: string;
  product: Product;
  currency: Currency;
  amountMinor: number;
  email: string;
  locale: string;
}

export interface PaymentProvider {
  readonly name: string;
  /** Where the browser goes to pay (a hosted page of the provider, or Pixmill's own for "local"). */
  checkoutUrl(req: CheckoutRequest): Promise<string>;
  /** Checks a webhook delivery's signature and reads its event; throws WebhookSignatureError when not authentic. */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>, now?: number): PaymentEvent;
}

export class WebhookSignatureError extends Error {}

export const SIGNATURE_HEADER = 'pixmill-signature';
/** A signed delivery older (or newer) than this is refused, so a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_S = 300;

/** Minor units: cents for USD/EUR, whole yen for JPY. */
const MINOR: Record<Currency, number> = { USD: 100, EUR: 100, JPY: 1 };
export const toMinor = (price: number, currency: Currency) => Math.round(price * MINOR[currency]);

/** Spec §9: USD for en and ja, EUR for de and fr; JPY only when chosen. */
export function defaultCurrency(locale: string | undefined): Currency {
  return locale === 'de' || locale === 'fr' ? 'EUR' : 'USD';
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` (the shape Stripe uses, so operators know it). */
export function signPayload(secret: Buffer, body: Buffer | string, t = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
  return `t=${t},v1=${mac}`;
}

export function verifySignature(secret: Buffer, body: Buffer, header: string | undefined, now = Date.now()): boolean {
  if (!header || header.length > 512) return false;
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.trim().split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > SIGNATURE_TOLERANCE_S) return false;
  const want = Buffer.from(signPayload(secret, body, t).split('v1=')[1]!, 'hex');
  const got = Buffer.from(String(parts.v1 ?? ''), 'hex');
  return got.length === want.length && timingSafeEqual(got, want);
}

/** The built-in provider: Pixmill's own checkout page; webhooks signed with a key derived from the server secret. */
export class LocalProvider implements PaymentProvider {
  readonly name = 'local';
  constructor(private readonly dataDir: string) {}

  get secret(): Buffer {
    return createHmac('sha256', serverSecret(this.dataDir)).update('payments|local|webhook').digest();
  }

  async checkoutUrl(req: CheckoutRequest): Promise<string> {
    const prefix = req.locale && req.locale !== 'en' ? `/${req.locale}` : '';
    return `${prefix}/checkout/?id=${encodeURIComponent(req.checkoutId)}`;
  }

  /** What the local provider's "pay" step sends to the webhook (body and signature header). */
  signedDelivery(event: PaymentEvent): { body: Buffer; headers: Record<string, string> } {
    const body = Buffer.from(JSON.stringify(event));
    return { body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signPayload(this.secret, body) } };
  }

  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>, now = Date.now()): PaymentEvent {
    const h = headers[SIGNATURE_HEADER];
    if (!verifySignature(this.secret, rawBody, Array.isArray(h) ? h[0] : h, now)) throw new WebhookSignatureError('bad signature');
    let e: Partial<PaymentEvent>;
    try {
      e = JSON.parse(rawBody.toString('utf8')) as Partial<PaymentEvent>;
    } catch {
      throw new WebhookSignatureError('body is not JSON');
    }
    if (typeof e.id !== 'string' || !e.id || e.id.length > 100 || !(PAYMENT_EVENT_TYPES as readonly unknown[]).includes(e.type)) throw paramError('unknown payment event');
    return {
      id: e.id,
      type: e.type as PaymentEventType,
      checkout_id: typeof e.checkout_id === 'string' ? e.checkout_id : undefined,
      account_id: Number.isSafeInteger(e.account_id) ? e.account_id : undefined,
      created: Number(e.created) || now,
    };
  }
}

export type { CheckoutView };

export interface WebhookResult {
  event_id: string;
  type: PaymentEventType;
  /** false when this event id was seen before (nothing changed) or had nothing to do */
  applied: boolean;
  duplicate: boolean;
}

export class PaymentService {
  private readonly providers = new Map<string, PaymentProvider>();
  /** The provider new checkouts use. */
  readonly defaultProvider: string;

  constructor(private readonly deps: Deps) {
    this.register(new LocalProvider(deps.config.dataDir));
    this.defaultProvider = 'local';
  }

  /** A real provider is added here (and chosen as default by configuration). */
  register(p: PaymentProvider): void {
    this.providers.set(p.name, p);
  }

  provider(name: string): PaymentProvider {
    const p = this.providers.get(name);
    if (!p) throw notFound('unknown payment provider');
    return p;
  }

  get local(): LocalProvider {
    return this.provider('local') as LocalProvider;
  }

  /** POST /api/payments/checkout: a logged-in user opens a checkout for a product in a currency. */
  async createCheckout(p: Principal, input: { product_id?: unknown; currency?: unknown; locale?: unknown; source?: unknown; medium?: unknown }): Promise<CheckoutView> {
    if (!p.logged || !p.account.email) throw unauthorized();
    const product = PRODUCTS.find((x) => x.id === Number(input.product_id));
    if (!product) throw paramError('unknown product_id');
    const locale = (LOCALES as readonly unknown[]).includes(input.locale) ? String(input.locale) : p.account.locale || 'en';
    let currency: Currency;
    if (input.currency === undefined || input.currency === '') currency = (CURRENCIES as readonly string[]).includes(p.account.currency) ? (p.account.currency as Currency) : defaultCurrency(locale);
    else if ((CURRENCIES as readonly unknown[]).includes(input.currency)) currency = input.currency as Currency;
    else throw paramError(`currency must be one of ${CURRENCIES.join(', ')}`);
    const provider = this.provider(this.defaultProvider);
    const id = randomUUID();
    const amountMinor = toMinor(product.price[currency], currency);
    const short = (v: unknown) => (typeof v === 'string' && v ? v.slice(0, 64) : null);
    await this.deps.db
      .insertInto('payment_checkouts')
      .values({ id, account_id: p.accountId, provider: provider.name, product_id: product.id, level: product.level, amount_minor: amountMinor, currency, status: 'open', source: short(input.source), medium: short(input.medium), created_at: Date.now(), paid_at: null })
      .execute();
    const url = await provider.checkoutUrl({ checkoutId: id, product, currency, amountMinor, email: p.account.email, locale });
    return this.view((await this.owned(p, id))!, url);
  }

  /** GET /api/payments/checkout: the caller's own checkout (the checkout page shows it). */
  async checkout(p: Principal, id: unknown): Promise<CheckoutView> {
    const row = await this.owned(p, id);
    if (!row) throw notFound('checkout not found');
    const provider = this.provider(row.provider);
    const product = PRODUCTS.find((x) => x.id === row.product_id)!;
    const url = await provider.checkoutUrl({ checkoutId: row.id, product, currency: row.currency as Currency, amountMinor: row.amount_minor, email: p.account.email ?? '', locale: p.account.locale || 'en' });
    return this.view(row, url);
  }

  /**
   * POST /api/payments/local/pay: the local provider's pay button. It produces a signed
   * checkout.completed event and delivers it through handleWebhook, exactly like a provider would.
   */
  async payLocal(p: Principal, id: unknown): Promise<WebhookResult & { checkout: CheckoutView }> {
    const row = await this.owned(p, id);
    if (!row || row.provider !== 'local') throw notFound('checkout not found');
    if (row.status !== 'open') throw paramError('This checkout is already closed.');
    const delivery = this.local.signedDelivery({ id: `evt_${randomUUID()}`, type: 'checkout.completed', checkout_id: row.id, created: Date.now() });
    const result = await this.handleWebhook('local', delivery.body, delivery.headers);
    return { ...result, checkout: await this.checkout(p, row.id) };
  }

  /** POST /api/payments/webhook/:provider — verify, then apply once. */
  async handleWebhook(providerName: string, rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<WebhookResult> {
    const provider = this.provider(providerName);
    let event: PaymentEvent;
    try {
      event = provider.verifyWebhook(rawBody, headers);
    } catch (e) {
      if (e instanceof WebhookSignatureError) throw new ApiError(CODE.VALIDATION_INVALID, undefined, 400);
      throw e;
    }
    const key = `${provider.name}:${event.id}`;
    return this.deps.db.transaction().execute(async (trx) => {
      const checkout = event.checkout_id ? await trx.selectFrom('payment_checkouts').selectAll().where('id', '=', event.checkout_id).where('provider', '=', provider.name).executeTakeFirst() : undefined;
      if (event.checkout_id && !checkout) throw notFound('checkout not found');
      const accountId = checkout?.account_id ?? event.account_id ?? null;
      if (accountId === null) throw paramError('the event names no checkout or account');
      // The event row first: a replay (or a concurrent re-delivery) conflicts here and changes nothing.
      const ins = await trx
        .insertInto('payment_events')
        .values({ id: key, provider: provider.name, type: event.type, account_id: accountId, checkout_id: checkout?.id ?? null, payload_json: rawBody.toString('utf8').slice(0, 8192), created_at: Date.now() })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      const base = { event_id: event.id, type: event.type };
      if (Number(ins.numInsertedOrUpdatedRows ?? 0) === 0) return { ...base, applied: false, duplicate: true };
      const accounts = this.deps.services.accounts;
      switch (event.type) {
        case 'checkout.completed': {
          if (!checkout) throw paramError('checkout.completed needs a checkout_id');
          // Only an open checkout pays; a second event id for the same checkout grants nothing more.
          const r = await trx.updateTable('payment_checkouts').set({ status: 'paid', paid_at: Date.now() }).where('id', '=', checkout.id).where('status', '=', 'open').executeTakeFirst();
          if (Number(r.numUpdatedRows) === 0) return { ...base, applied: false, duplicate: false };
          await accounts.grantPlanIn(trx, accountId, checkout.level === 'pro' ? 'pro' : 'basic', PLAN_PERIOD_DAYS);
          return { ...base, applied: true, duplicate: false };
        }
        case 'checkout.cancelled': {
          if (!checkout) throw paramError('checkout.cancelled needs a checkout_id');
          const r = await trx.updateTable('payment_checkouts').set({ status: 'cancelled' }).where('id', '=', checkout.id).where('status', '=', 'open').executeTakeFirst();
          return { ...base, applied: Number(r.numUpdatedRows) > 0, duplicate: false };
        }
        case 'subscription.renewed':
          await accounts.renewPlanIn(trx, accountId, PLAN_PERIOD_DAYS);
          return { ...base, applied: true, duplicate: false };
        case 'subscription.expired':
          return { ...base, applied: await accounts.expirePlanIn(trx, accountId), duplicate: false };
      }
    });
  }

  private async owned(p: Principal, id: unknown) {
    if (typeof id !== 'string' || !id || id.length > 64) throw paramError('checkout id is required');
    return this.deps.db.selectFrom('payment_checkouts').selectAll().where('id', '=', id).where('account_id', '=', p.accountId).executeTakeFirst();
  }

  private view(row: { id: string; provider: string; product_id: number; level: string; amount_minor: number; currency: string; status: string }, url: string): CheckoutView {
    return {
      checkout_id: row.id,
      provider: row.provider,
      product_id: row.product_id,
      level: row.level,
      amount: row.amount_minor / MINOR[row.currency as Currency],
      currency: row.currency,
      status: row.status,
      url,
    };
  }
}
