/**
 * Plans and payment (spec §3 Products): checkouts go through the configured PaymentProvider
 * (PAYMENT_PROVIDER: none, local or stripe); the provider tells us about payments by webhook. A
 * webhook is trusted only when its signature verifies, and each provider event id is applied once:
 * the event row and its effect commit in one transaction, so a replayed (or concurrently
 * re-delivered) event changes nothing. Without a provider nothing can be bought; operators grant
 * plans with `npm run admin`.
 */
import { randomUUID } from 'node:crypto';
import {
  API_PLAN_CURRENCIES,
  API_PLAN_LEVEL,
  apiPlanNamed,
  apiPlanOfProduct,
  isApiPlanCurrency,
  type ApiPlanCurrency,
} from '../../src/shared/domain/apiPlans.js';
import type { CheckoutView } from '../../src/shared/domain/plans.js';
import { PLAN_PERIOD_DAYS, PRODUCTS } from '../../src/shared/domain/constants.js';
import { currencyFor } from '../../src/shared/domain/locale.js';
import { notFound, paramError, refused, unauthorized } from '../errors.js';
import type { Db } from '../repositories/db.js';
import { PaymentRepository, type CheckoutRow } from '../repositories/paymentRepository.js';
import { lockAccount } from '../repositories/uploadRepository.js';
import { OPEN_CHECKOUTS_MAX, OPEN_CHECKOUTS_WINDOW_MS } from '../../src/shared/domain/fairUse.js';
import type { Config } from '../config.js';
import type { ServiceBase } from './base.js';
import type { ApiTokenService } from './apiTokens.js';
import type { PlanService } from './plans.js';
import {
  LocalProvider,
  MINOR,
  toMinor,
  WebhookSignatureError,
  type OpenedCheckout,
  type PaymentEvent,
  type PaymentProvider,
  type Product,
} from './paymentProviders.js';
import { CURRENCIES, isCurrency, isLanguage, type Currency } from './profile.js';
import { StripeProvider } from './stripeProvider.js';
import type { Principal } from './tokens.js';

/** What this service uses: the base (database, configuration, blobs) and the services it calls. */
type Deps = ServiceBase & { services: { apiTokens: ApiTokenService; plans: PlanService } };

export type { CheckoutView };

/** The older code of the refusal in `data.error` (the pricing page read it before `data.reason` existed). */
const PURCHASING_DISABLED_ERROR = 'purchasing_disabled';
const purchasingDisabled = () => refused({ reason: 'purchasingDisabled', error: PURCHASING_DISABLED_ERROR });

/** Spec §9: USD for en and ja, EUR for de and fr; JPY only when chosen. */
export function defaultCurrency(locale: string | undefined): Currency {
  return currencyFor(isLanguage(locale) ? locale : 'en');
}

export interface WebhookResult {
  event_id: string;
  type: string;
  /** false when this event id was seen before (nothing changed) or had nothing to do */
  applied: boolean;
  duplicate: boolean;
}

/** The provider PAYMENT_PROVIDER selects, or null for none. Stripe without its keys is a startup error. */
function providerFromConfig(config: Config): PaymentProvider | null {
  switch (config.paymentProvider) {
    case 'local':
      return new LocalProvider(config.dataDir);
    case 'stripe':
      if (!config.stripeSecretKey || !config.stripeWebhookSecret)
        throw new Error('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
      return new StripeProvider({
        secretKey: config.stripeSecretKey,
        webhookSecret: config.stripeWebhookSecret,
        prices: config.stripePrices,
        publicUrl: config.publicUrl,
        apiBase: config.stripeApiBase,
      });
    default:
      return null;
  }
}

export class PaymentService {
  /** The configured provider; null when purchasing is off. */
  readonly provider: PaymentProvider | null;
  private readonly payments: PaymentRepository;

  constructor(private readonly deps: Deps) {
    this.provider = providerFromConfig(deps.config);
    this.payments = new PaymentRepository(deps.db);
  }

  /** GET /api/payments/config: whether this server sells plans, and through which provider. */
  info(): { purchasing: boolean; provider: string } {
    return { purchasing: this.provider !== null, provider: this.provider?.name ?? 'none' };
  }

  /** The built-in provider when PAYMENT_PROVIDER=local (tests sign deliveries with its secret). */
  get local(): LocalProvider {
    return this.providerNamed('local') as LocalProvider;
  }

  private providerNamed(name: string): PaymentProvider {
    if (!this.provider || this.provider.name !== name) throw notFound('providerNotFound');
    return this.provider;
  }

  /** POST /api/payments/checkout: a logged-in user opens a checkout for a product in a currency. */
  async createCheckout(
    p: Principal,
    input: { product_id?: unknown; currency?: unknown; locale?: unknown; source?: unknown; medium?: unknown },
  ): Promise<CheckoutView> {
    const { provider, email } = this.buyer(p);
    const product = PRODUCTS.find((x) => x.id === Number(input.product_id));
    if (!product) throw paramError('productUnknown');
    const locale = isLanguage(input.locale) ? input.locale : p.account.locale || 'en';
    let currency: Currency;
    if (input.currency === undefined || input.currency === '')
      currency = isCurrency(p.account.currency) ? p.account.currency : defaultCurrency(locale);
    else if (isCurrency(input.currency)) currency = input.currency;
    else throw paramError('fieldInvalid', { field: 'currency', allowed: CURRENCIES });
    return this.open(p, provider, {
      product,
      level: product.level,
      label: product.level === 'pro' ? 'Pixmill Pro' : 'Pixmill Basic',
      currency,
      amountMinor: toMinor(product.price[currency], currency),
      email,
      locale,
      source: input.source,
      medium: input.medium,
    });
  }

  /**
   * GET /api/v2/checkout (spec §7 "GET checkout with email, api_plan"): the signed-in account opens a
   * checkout for an API credit pack. Like a plan checkout it needs a signed-in account with an email
   * (else code 6); `email` must be that account's address (else 10001 naming `email`), so a pack is
   * never bought onto another account; an unknown pack is 10001 naming `api_plan`.
   */
  async createApiCheckout(
    p: Principal,
    input: { email?: unknown; api_plan?: unknown; currency?: unknown; locale?: unknown },
  ): Promise<CheckoutView> {
    const { provider, email } = this.buyer(p);
    const plan = apiPlanNamed(input.api_plan);
    if (!plan) throw paramError('apiPlanUnknown');
    if (typeof input.email !== 'string' || input.email.trim().toLowerCase() !== email.toLowerCase())
      throw paramError('emailNotOwn');
    const locale = isLanguage(input.locale) ? input.locale : p.account.locale || 'en';
    let currency: ApiPlanCurrency;
    if (input.currency === undefined || input.currency === '') {
      const own = p.account.currency;
      const byLocale = defaultCurrency(locale);
      currency = isApiPlanCurrency(own) ? own : isApiPlanCurrency(byLocale) ? byLocale : 'USD';
    } else if (isApiPlanCurrency(input.currency)) currency = input.currency;
    else throw paramError('fieldInvalid', { field: 'currency', allowed: API_PLAN_CURRENCIES });
    const product: Product = { id: plan.productId, level: API_PLAN_LEVEL, price: plan.price };
    return this.open(p, provider, {
      product,
      level: API_PLAN_LEVEL,
      label: `Pixmill API ${plan.credits} credits`,
      currency,
      amountMinor: toMinor(plan.price[currency], currency),
      email,
      locale,
    });
  }

  /** The signed-in buyer's address and the provider; code 6 without a registered account, the refusal when nothing is sold. */
  private buyer(p: Principal): { provider: PaymentProvider; email: string } {
    if (!p.logged || !p.account.email) throw unauthorized();
    if (!this.provider) throw purchasingDisabled();
    return { provider: this.provider, email: p.account.email };
  }

  /** Records an open checkout, then asks the provider for the page where it is paid. */
  private async open(
    p: Principal,
    provider: PaymentProvider,
    c: {
      product: Product;
      level: string;
      label: string;
      currency: Currency;
      amountMinor: number;
      email: string;
      locale: string;
      source?: unknown;
      medium?: unknown;
    },
  ): Promise<CheckoutView> {
    const id = randomUUID();
    const short = (v: unknown) => (typeof v === 'string' && v ? v.slice(0, 64) : null);
    // At most OPEN_CHECKOUTS_MAX open from the last day, counted under the account's row lock so parallel opens see each other.
    await this.deps.db.transaction().execute(async (trx) => {
      await lockAccount(trx, p.accountId);
      const payments = new PaymentRepository(trx);
      if ((await payments.countOpen(p.accountId, Date.now() - OPEN_CHECKOUTS_WINDOW_MS)) >= OPEN_CHECKOUTS_MAX)
        throw refused({ reason: 'checkoutLimit', max: OPEN_CHECKOUTS_MAX });
      await payments.insertCheckout({
        id,
        account_id: p.accountId,
        provider: provider.name,
        product_id: c.product.id,
        level: c.level,
        amount_minor: c.amountMinor,
        currency: c.currency,
        status: 'open',
        source: short(c.source),
        medium: short(c.medium),
        created_at: Date.now(),
        paid_at: null,
      });
    });
    let opened: OpenedCheckout;
    try {
      opened = await provider.open({
        checkoutId: id,
        accountId: p.accountId,
        product: c.product,
        label: c.label,
        currency: c.currency,
        amountMinor: c.amountMinor,
        email: c.email,
        locale: c.locale,
      });
    } catch {
      // The provider refused or could not be reached: the checkout never opened, and the buyer may try again.
      await this.payments.close(id, 'cancelled', Date.now());
      throw refused({ reason: 'providerFailed', error: 'provider_failed' });
    }
    await this.payments.setProviderSession(id, opened.ref, opened.url);
    return this.checkout(p, id);
  }

  /** GET /api/payments/checkout: the caller's own checkout (the checkout page shows it). */
  async checkout(p: Principal, id: unknown): Promise<CheckoutView> {
    const row = await this.owned(p, id);
    if (!row) throw notFound('checkoutNotFound');
    return view(row);
  }

  /**
   * POST /api/payments/local/pay: the local provider's pay button (only when PAYMENT_PROVIDER=local).
   * It produces a signed checkout.completed event and delivers it through handleWebhook, exactly like
   * a provider would.
   */
  async payLocal(p: Principal, id: unknown): Promise<WebhookResult & { checkout: CheckoutView }> {
    const local = this.local;
    const row = await this.owned(p, id);
    if (!row || row.provider !== 'local') throw notFound('checkoutNotFound');
    if (row.status !== 'open') throw paramError('checkoutClosed');
    const delivery = local.signedDelivery({
      id: `evt_${randomUUID()}`,
      type: 'checkout.completed',
      checkout_id: row.id,
      created: Date.now(),
    });
    const result = await this.handleWebhook('local', delivery.body, delivery.headers);
    return { ...result, checkout: await this.checkout(p, row.id) };
  }

  /** POST /api/payments/webhook/:provider — verify, then apply once. */
  async handleWebhook(
    providerName: string,
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<WebhookResult> {
    const provider = this.providerNamed(providerName);
    let event: ReturnType<PaymentProvider['verifyWebhook']>;
    try {
      event = provider.verifyWebhook(rawBody, headers);
    } catch (e) {
      if (e instanceof WebhookSignatureError) throw refused({ reason: 'validationInvalid' }, 400);
      throw e;
    }
    if ('ignored' in event) return { event_id: event.id, type: event.type, applied: false, duplicate: false };
    const verified = event;
    return this.deps.db.transaction().execute((trx) => this.apply(trx, provider.name, verified, rawBody));
  }

  private async apply(trx: Db, provider: string, event: PaymentEvent, rawBody: Buffer): Promise<WebhookResult> {
    const repo = new PaymentRepository(trx);
    const checkout = event.checkout_id ? await repo.providerCheckout(event.checkout_id, provider) : undefined;
    if (event.checkout_id && !checkout) throw notFound('checkoutNotFound');
    const accountId = checkout?.account_id ?? event.account_id ?? null;
    if (accountId === null) throw paramError('paymentEventIncomplete');
    const base = { event_id: event.id, type: event.type };
    // The event row first: a replay (or a concurrent re-delivery) conflicts here and changes nothing.
    const fresh = await repo.recordEvent({
      id: `${provider}:${event.id}`,
      provider,
      type: event.type,
      account_id: accountId,
      checkout_id: checkout?.id ?? null,
      payload_json: rawBody.toString('utf8').slice(0, 8192),
      created_at: Date.now(),
    });
    if (!fresh) return { ...base, applied: false, duplicate: true };
    const plans = this.deps.services.plans;
    const now = Date.now();
    switch (event.type) {
      case 'checkout.completed': {
        if (!checkout) throw paramError('paymentEventIncomplete');
        // Only an open checkout pays; a second event id for the same checkout grants nothing more.
        if (!(await repo.close(checkout.id, 'paid', now))) return { ...base, applied: false, duplicate: false };
        if (checkout.level === API_PLAN_LEVEL) {
          // An API credit pack: its credits onto the balance, once per checkout.
          const plan = apiPlanOfProduct(checkout.product_id);
          if (!plan) throw paramError('paymentEventIncomplete');
          await this.deps.services.apiTokens.grantPackIn(trx, accountId, plan, `checkout:${checkout.id}`);
          return { ...base, applied: true, duplicate: false };
        }
        await plans.grantPlanIn(trx, accountId, checkout.level === 'pro' ? 'pro' : 'basic', PLAN_PERIOD_DAYS);
        return { ...base, applied: true, duplicate: false };
      }
      case 'checkout.cancelled':
        if (!checkout) throw paramError('paymentEventIncomplete');
        return { ...base, applied: await repo.close(checkout.id, 'cancelled', now), duplicate: false };
      case 'subscription.renewed':
        await plans.renewPlanIn(trx, accountId, PLAN_PERIOD_DAYS);
        return { ...base, applied: true, duplicate: false };
      case 'subscription.expired':
        return { ...base, applied: await plans.expirePlanIn(trx, accountId), duplicate: false };
    }
  }

  private async owned(p: Principal, id: unknown): Promise<CheckoutRow | undefined> {
    if (typeof id !== 'string' || !id || id.length > 64) throw paramError('fieldRequired', { field: 'id' });
    return this.payments.ownedCheckout(id, p.accountId);
  }
}

function view(row: CheckoutRow): CheckoutView {
  return {
    checkout_id: row.id,
    provider: row.provider,
    product_id: row.product_id,
    level: row.level,
    amount: row.amount_minor / MINOR[row.currency as Currency],
    currency: row.currency,
    status: row.status,
    // Checkouts made before 005 kept no address: the local provider's page is the only kind they had.
    url: row.url ?? `/checkout/?id=${encodeURIComponent(row.id)}`,
  };
}
