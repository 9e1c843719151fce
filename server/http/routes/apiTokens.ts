/**
 * The developer API's own calls (spec §7 "API host calls": api_token/get, api_token/reset): creating,
 * showing and resetting the caller's API token. Both need the signed-in user's token (user_token field
 * or cookie) and refuse an API token (the gate in auth.ts answers code 6). This module also installs
 * that gate for every route.
 */
import type { FastifyInstance } from 'fastify';
import { ApiTokenGet, ApiTokenReset, ApiWebhookList } from '../../../src/shared/schemas/apiTokens.js';
import type { AppContext } from '../../context.js';
import { unauthorized } from '../../errors.js';
import { principalOf, registerApiTokenGate } from '../auth.js';
import { ok } from '../envelope.js';
import { route } from '../schemaRoute.js';

/** A person creates or resets a token now and then; a script trying many accounts' cookies is stopped. */
const TOKEN_MANAGEMENT_LIMIT = { rateLimit: { max: 60, timeWindow: '1 minute' } };
const USER_TOKEN = ['user_token'] as const;

export async function apiTokenRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerApiTokenGate(app, ctx);
  const apiTokens = ctx.services.apiTokens;

  route(app, ApiTokenGet, TOKEN_MANAGEMENT_LIMIT, async (f, req) =>
    ok(await apiTokens.get(await principalOf(req, ctx, USER_TOKEN), { create: f.create })),
  );

  route(app, ApiTokenReset, TOKEN_MANAGEMENT_LIMIT, async (_f, req) =>
    ok(await apiTokens.reset(await principalOf(req, ctx, USER_TOKEN))),
  );

  route(app, ApiWebhookList, TOKEN_MANAGEMENT_LIMIT, async (_f, req) => {
    const p = await principalOf(req, ctx, USER_TOKEN);
    if (!p.logged) throw unauthorized();
    return ok(await ctx.services.webhooks.list(p));
  });

  // Webhook deliveries go out from every API process (one sender per try: webhooks.ts claims each).
  ctx.services.webhooks.start();
  app.addHook('onClose', async () => ctx.services.webhooks.stop());
}
