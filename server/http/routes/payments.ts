/** Checkout and payment-provider webhooks (plans of spec §3, API packs of §7); the provider is chosen by PAYMENT_PROVIDER. */
import type { FastifyInstance } from 'fastify';
import {
  ApiCheckout,
  CreateCheckout,
  GetCheckout,
  PayLocal,
  PaymentsConfig,
  PaymentWebhook,
} from '../../../src/shared/schemas/payments.js';
import type { AppContext } from '../../context.js';
import { principalOf } from '../auth.js';
import { ok } from '../envelope.js';
import { str } from '../params.js';
import { openApiSchema, route } from '../schemaRoute.js';

export async function paymentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const payments = ctx.services.payments;

  /** Public: whether this server sells plans (the pricing page says so when it does not). */
  route(app, PaymentsConfig, async () => ok(payments.info()));

  route(app, CreateCheckout, async (f, req) => ok(await payments.createCheckout(await principalOf(req, ctx), f)));

  route(app, GetCheckout, async (f, req) => ok(await payments.checkout(await principalOf(req, ctx), f.id)));

  route(app, PayLocal, async (f, req) => ok(await payments.payLocal(await principalOf(req, ctx), f.id)));

  // A GET that opens a checkout: the user token must be a field, so a link or <img> that only carries
  // the browser's cookies opens nothing.
  route(app, ApiCheckout, async (f, req) => {
    const token = str((req.query as Record<string, unknown>).user_token);
    return ok(
      await payments.createApiCheckout(await ctx.services.tokens.resolve(token), {
        email: f.email,
        api_plan: f.api_plan,
        currency: f.currency,
        locale: str((req.query as Record<string, unknown>).locale),
      }),
    );
  });

  // The signature covers the exact bytes sent, so this scope keeps the body raw instead of parsing it.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    scope.post<{ Params: { provider: string } }>(
      PaymentWebhook.url,
      { schema: openApiSchema(PaymentWebhook) },
      async (req) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        return ok(await payments.handleWebhook(req.params.provider, raw, req.headers));
      },
    );
  });
}
