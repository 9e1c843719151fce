/**
 * Stripe as the payment provider (PAYMENT_PROVIDER=stripe), through Stripe's official SDK: a checkout
 * is a hosted Checkout Session (mode payment: one plan period per purchase, like the local provider),
 * and webhooks are authenticated with `stripe.webhooks.constructEvent` (the `Stripe-Signature` header,
 * STRIPE_WEBHOOK_SECRET, 300 s tolerance).
 *
 * Events used: checkout.session.completed / checkout.session.async_payment_succeeded with
 * payment_status "paid" → checkout.completed; checkout.session.expired → checkout.cancelled. The
 * session's client_reference_id is our checkout id. Every other authentic event is acknowledged and ignored.
 */
import { LANGUAGES } from '../../src/shared/domain/locale.js';
import Stripe from 'stripe';
import { paramError } from '../errors.js';
import {
  headerValue,
  SIGNATURE_TOLERANCE_S,
  WebhookSignatureError,
  type CheckoutRequest,
  type IgnoredEvent,
  type OpenedCheckout,
  type PaymentEvent,
  type PaymentProvider,
} from './paymentProviders.js';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** `<product id>:<currency>` → a Stripe price id; without one the price is sent inline (price_data) */
  prices: Record<string, string>;
  /** absolute base for the return addresses (PUBLIC_URL) */
  publicUrl: string;
  /** another API address (recorded-answer replays in tests, stripe-mock) */
  apiBase?: string;
}

/** Stripe Checkout's own languages that match ours. */
/** Our interface languages (one list in src/shared/domain); Stripe Checkout speaks each of them. */
const STRIPE_LOCALES = new Set<string>(LANGUAGES);

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe';
  private readonly stripe: Stripe;

  constructor(private readonly settings: StripeSettings) {
    const base = settings.apiBase ? new URL(settings.apiBase) : null;
    this.stripe = new Stripe(settings.secretKey, {
      maxNetworkRetries: 1,
      timeout: 20_000,
      telemetry: false,
      ...(base
        ? {
            host: base.hostname,
            port: base.port || (base.protocol === 'https:' ? 443 : 80),
            protocol: base.protocol === 'http:' ? 'http' : 'https',
          }
        : {}),
    });
  }

  async open(req: CheckoutRequest): Promise<OpenedCheckout> {
    const prefix = req.locale && req.locale !== 'en' ? `/${req.locale}` : '';
    const back = (status: string) =>
      `${this.settings.publicUrl}${prefix}/checkout/?id=${encodeURIComponent(req.checkoutId)}&status=${status}`;
    const price = this.settings.prices[`${req.product.id}:${req.currency}`];
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: req.checkoutId,
        customer_email: req.email,
        locale: STRIPE_LOCALES.has(req.locale) ? (req.locale as 'en') : 'auto',
        line_items: [
          price
            ? { price, quantity: 1 }
            : {
                quantity: 1,
                price_data: {
                  currency: req.currency.toLowerCase(),
                  unit_amount: req.amountMinor,
                  product_data: { name: req.label },
                },
              },
        ],
        metadata: {
          checkout_id: req.checkoutId,
          account_id: String(req.accountId),
          product_id: String(req.product.id),
        },
        success_url: back('success'),
        cancel_url: back('cancelled'),
      },
      // One session per checkout even if the request is retried.
      { idempotencyKey: `pixmill-checkout-${req.checkoutId}` },
    );
    if (!session.url) throw new Error('Stripe returned a Checkout Session without a url');
    return { url: session.url, ref: session.id };
  }

  verifyWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    now = Date.now(),
  ): PaymentEvent | IgnoredEvent {
    const header = headerValue(headers['stripe-signature']);
    if (!header) throw new WebhookSignatureError('no Stripe-Signature header');
    // The SDK refuses old signatures only: one dated in the future (a leaked secret's pre-signed
    // deliveries) passes it, so every t= of the header must be within the tolerance ahead too.
    const stamps = header
      .split(',')
      .filter((p) => p.trim().startsWith('t='))
      .map((p) => Number(p.trim().slice(2)));
    if (!stamps.length || stamps.some((t) => !Number.isInteger(t) || t > now / 1000 + SIGNATURE_TOLERANCE_S))
      throw new WebhookSignatureError('signature timestamp in the future');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        header,
        this.settings.webhookSecret,
        SIGNATURE_TOLERANCE_S,
        undefined,
        now,
      );
    } catch (e) {
      throw new WebhookSignatureError(e instanceof Error ? e.message : 'bad signature');
    }
    const created = event.created * 1000;
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const s = event.data.object;
        // Delayed payment methods complete the session unpaid; their async_payment_succeeded event pays.
        if (s.payment_status !== 'paid') return { id: event.id, type: event.type, ignored: true };
        return { id: event.id, type: 'checkout.completed', checkout_id: checkoutIdOf(s), created };
      }
      case 'checkout.session.expired':
        return { id: event.id, type: 'checkout.cancelled', checkout_id: checkoutIdOf(event.data.object), created };
      default:
        return { id: event.id, type: event.type, ignored: true };
    }
  }
}

function checkoutIdOf(s: Stripe.Checkout.Session): string {
  const id = s.client_reference_id ?? s.metadata?.checkout_id;
  if (!id) throw paramError('paymentEventIncomplete');
  return id;
}
