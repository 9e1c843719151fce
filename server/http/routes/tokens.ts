/** Tokens and points (spec §7): guest_token, bind/unbind, point, license. */
import type { FastifyInstance } from 'fastify';
import { BindToken, GuestToken, License, Points, UnbindToken } from '../../../src/shared/schemas/tokens.js';
import type { AppContext } from '../../context.js';
import { ok } from '../envelope.js';
import { principalOf } from '../auth.js';
import { route } from '../schemaRoute.js';

const LICENSE_TOKENS = ['guest_token_v2', 'user_token', 'token'];

export async function tokenRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { tokens, license } = ctx.services;
  const userToken = (f: { token?: string; user_token?: unknown }) =>
    f.token ?? (typeof f.user_token === 'string' ? f.user_token : undefined);

  route(app, GuestToken, { rateLimit: { max: ctx.config.guestTokenRateLimit, timeWindow: '1 minute' } }, async () =>
    ok({ token: (await tokens.createGuest()).token }),
  );

  route(app, BindToken, async (f) => ok(await tokens.bind(userToken(f), f.guest_token_v2)));

  route(app, UnbindToken, async (f) => {
    await tokens.unbind(userToken(f), f.guest_token_v2);
    return ok(null);
  });

  route(app, Points, async (_f, req) => ok(license.points(await principalOf(req, ctx, LICENSE_TOKENS))));

  route(app, License, async (_f, req) => ok(license.view(await principalOf(req, ctx, LICENSE_TOKENS))));
}
