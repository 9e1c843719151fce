/** Checkout and payment-provider webhooks (plans of spec §3); the provider is chosen by PAYMENT_PROVIDER. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { principalOf } from '../auth.js';
import { ok } from '../envelope.js';
import { fieldsOf } from '../params.js';

export async function paymentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const payments = ctx.services.payments;

  /** Public: whether this server sells plans (the pricing page says so when it does not). */
  app.get('/api/payments/config', async () => ok(payments.info()));

  app.post('/api/payments/checkout', async (req) => {
    const q = (await fieldsOf(req));
    return ok(await payments.createCheckout(await principalOf(req, ctx), { product_id: q.product_id, currency: q.currency, locale: q.locale, source: q.source, medium: q.medium }));
  });

  app.get('/api/payments/checkout', async (req) => ok(await payments.checkout(await principalOf(req, ctx), (await fieldsOf(req)).id)));

  app.post('/api/payments/local/pay', async (req) => ok(await payments.payLocal(await principalOf(req, ctx), (await fieldsOf(req)).id)));

  // The signature covers the exact bytes sent, so this scope keeps the body raw instead of parsing it.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    scope.post<{ Params: { provider: string } }>('/api/payments/webhook/:provider', async (req) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      return ok(await payments.handleWebhook(req.params.provider, raw, req.headers));
    });
  });
}
