/**
 * The payment provider interface and the built-in "local" provider. A provider opens a checkout
 * (where the browser pays) and authenticates its webhook deliveries, turning them into PaymentEvents.
 *
 * "local" is a free checkout served by Pixmill itself: it exists for the tests and the demo mode and
 * is registered only when PAYMENT_PROVIDER=local. Its pay step produces a signed event that goes
 * through the very same webhook path a real provider's delivery takes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { paramError } from '../errors.js';
import { serverSecret } from '../repositories/secrets.js';
import type { Currency } from './profile.js';

/** What a checkout sells: a plan of PRODUCTS (constants.ts) or an API credit pack (apiPlans.ts). */
export interface Product {
  id: number;
  level: string;
  price: Readonly<Partial<Record<Currency, number>>>;
}

const PAYMENT_EVENT_TYPES = [
  'checkout.completed',
  'checkout.cancelled',
  'subscription.renewed',
  'subscription.expired',
] as const;
type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

/** What a provider reports, after its signature was verified. */
export interface PaymentEvent {
  /** the provider's event id (idempotency key) */
  id: string;
  type: PaymentEventType;
  checkout_id?: string;
  account_id?: number;
  created: number;
}

/** An authentic delivery that Pixmill has nothing to do with (acknowledged so the provider stops sending it). */
export interface IgnoredEvent {
  id: string;
  type: string;
  ignored: true;
}

export interface CheckoutRequest {
  checkoutId: string;
  accountId: number;
  product: Product;
  /** the name the provider's page shows ("Pixmill Pro", "Pixmill API 2000 credits") */
  label: string;
  currency: Currency;
  amountMinor: number;
  email: string;
  locale: string;
}

export interface OpenedCheckout {
  /** where the browser goes to pay (relative for the local provider, absolute for a hosted page) */
  url: string;
  /** the provider's own id of the checkout (e.g. a Stripe Checkout Session id) */
  ref: string | null;
}

export interface PaymentProvider {
  readonly name: string;
  open(req: CheckoutRequest): Promise<OpenedCheckout>;
  /** Checks a delivery's signature and reads its event; throws WebhookSignatureError when not authentic. */
  verifyWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    now?: number,
  ): PaymentEvent | IgnoredEvent;
}

export class WebhookSignatureError extends Error {}

const SIGNATURE_HEADER = 'pixmill-signature';
/** A signed delivery older (or newer) than this is refused, so a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_S = 300;

/** Minor units: cents for USD/EUR, whole yen for JPY (also Stripe's unit_amount). */
export const MINOR: Record<Currency, number> = { USD: 100, EUR: 100, JPY: 1 };
export const toMinor = (price: number, currency: Currency) => Math.round(price * MINOR[currency]);

export const headerValue = (h: string | string[] | undefined) => (Array.isArray(h) ? h[0] : h);

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

  async open(req: CheckoutRequest): Promise<OpenedCheckout> {
    const prefix = req.locale && req.locale !== 'en' ? `/${req.locale}` : '';
    return { url: `${prefix}/checkout/?id=${encodeURIComponent(req.checkoutId)}`, ref: null };
  }

  /** What the local provider's "pay" step sends to the webhook (body and signature header). */
  signedDelivery(event: PaymentEvent): { body: Buffer; headers: Record<string, string> } {
    const body = Buffer.from(JSON.stringify(event));
    return {
      body,
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signPayload(this.secret, body) },
    };
  }

  verifyWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    now = Date.now(),
  ): PaymentEvent {
    if (!verifySignature(this.secret, rawBody, headerValue(headers[SIGNATURE_HEADER]), now))
      throw new WebhookSignatureError('bad signature');
    let e: Partial<PaymentEvent>;
    try {
      e = JSON.parse(rawBody.toString('utf8')) as Partial<PaymentEvent>;
    } catch {
      throw new WebhookSignatureError('body is not JSON');
    }
    if (
      typeof e.id !== 'string' ||
      !e.id ||
      e.id.length > 100 ||
      !(PAYMENT_EVENT_TYPES as readonly unknown[]).includes(e.type)
    )
      throw paramError('paymentEventInvalid');
    return {
      id: e.id,
      type: e.type as PaymentEventType,
      checkout_id: typeof e.checkout_id === 'string' ? e.checkout_id : undefined,
      account_id: Number.isSafeInteger(e.account_id) ? e.account_id : undefined,
      created: Number(e.created) || now,
    };
  }
}
