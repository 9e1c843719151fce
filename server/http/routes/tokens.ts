/** Tokens and points (spec §7): guest_token, bind/unbind, point, license. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { ok } from '../envelope.js';
import { fieldsOf, str } from '../params.js';
import { principalOf } from '../auth.js';


export async function tokenRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { tokens, license } = ctx.services;

  app.post(
    '/api/v2/guest_token',
    { config: { rateLimit: { max: ctx.config.guestTokenRateLimit, timeWindow: '1 minute' } } },
    async () => ok({ token: (await tokens.createGuest()).token }),
  );

  app.post('/api/v2/bind_token', async (req) => {
    const b = await fieldsOf(req);
    return ok(await tokens.bind(str(b.token) ?? str(b.user_token), str(b.guest_token_v2)));
  });

  app.post('/api/v2/unbind_token', async (req) => {
    const b = await fieldsOf(req);
    await tokens.unbind(str(b.token) ?? str(b.user_token), str(b.guest_token_v2));
    return ok(null);
  });

  app.get('/api/v2/point', async (req) => ok(license.points(await principalOf(req, ctx, ['guest_token_v2', 'user_token', 'token']))));

  app.post('/api/v2/license', async (req) => ok(license.view(await principalOf(req, ctx, ['guest_token_v2', 'user_token', 'token']))));
}
