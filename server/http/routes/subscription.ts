/** Subscription routes of spec §7. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CartAbandon, IsSubscribed, SubscribeInfo } from '../../../src/shared/schemas/promotions.js';
import type { AppContext } from '../../context.js';
import { principalOf, tokenOf } from '../auth.js';
import { ok } from '../envelope.js';
import { route } from '../schemaRoute.js';
import { LOOKUP_RATE_LIMIT } from './misc.js';

export async function subscriptionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sub = ctx.services.subscription;
  route(app, SubscribeInfo, async (_q, req) => ok(sub.info(await principalOf(req, ctx))));
  // Only about the signed-in caller's own address (it once told anyone whether an address pays).
  route(
    app,
    IsSubscribed,
    { ...LOOKUP_RATE_LIMIT, authenticate: (req: FastifyRequest) => principalOf(req, ctx) },
    async (q, req) => ok(await sub.isSubscribed(q.email, await principalOf(req, ctx))),
  );
  route(app, CartAbandon, { rateLimit: { max: 10, timeWindow: '1 minute' } }, async (q, req) => {
    // Anonymous visitors of the pricing page may abandon a cart too.
    const t = tokenOf(req);
    const accountId = t
      ? await ctx.services.tokens.resolve(t).then(
          (p) => p.accountId,
          () => null,
        )
      : null;
    return ok(await sub.cartAbandon(accountId, q));
  });
}
