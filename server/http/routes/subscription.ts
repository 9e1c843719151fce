/** Subscription routes of spec §7. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { principalOf, tokenOf } from '../auth.js';
import { ok } from '../envelope.js';
import { fieldsOf } from '../params.js';
import { LOOKUP_RATE_LIMIT } from './misc.js';

export async function subscriptionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sub = ctx.services.subscription;
  app.get('/api/v2/subscribe_info', async (req) => ok(sub.info(await principalOf(req, ctx))));
  // Only about the signed-in caller's own address (issue 28: it told anyone whether an address pays).
  app.get('/api/v2/is_subscribed', LOOKUP_RATE_LIMIT, async (req) => ok(await sub.isSubscribed((await fieldsOf(req)).email, await principalOf(req, ctx))));
  app.post('/api/cart/abandon', { config: { rateLimit: { max: 10, timeWindow: '1 minute' } } }, async (req) => {
    // Anonymous visitors of the pricing page may abandon a cart too.
    const t = tokenOf(req);
    const accountId = t ? await ctx.services.tokens.resolve(t).then((p) => p.accountId, () => null) : null;
    const q = (await fieldsOf(req));
    return ok(await sub.cartAbandon(accountId, { product_id: q.product_id, currency: q.currency, source: q.source, medium: q.medium }));
  });
}
