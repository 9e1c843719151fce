/** Misc calls of spec §7: user info and profile, mail, countdown, promotions, analytics reports. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProfileSet, UserInfoUpdate } from '../../../src/shared/schemas/accounts.js';
import { Checkin, CountDown, Report, ShareBind, ShareCode } from '../../../src/shared/schemas/promotions.js';
import { EmailStatus, MailUnsubscribe } from '../../../src/shared/schemas/site.js';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../services/tokens.js';
import { principalOf, tokenOf } from '../auth.js';
import { ok } from '../envelope.js';
import { route } from '../schemaRoute.js';
import { paramError, unauthorized } from '../../errors.js';
import { EVENT_PAYLOAD_MAX_CHARS } from '../../services/events.js';

/**
 * Anonymous callers may write analytics and look up addresses, but never without limit:
 * per client address and minute. A page sends a few reports per action; 60 a minute is far above that.
 */
const REPORT_RATE_LIMIT = { rateLimit: { max: 60, timeWindow: '1 minute' } };
/** Address look-ups answer signed-in callers about their own address only, and are limited as well. */
export const LOOKUP_RATE_LIMIT = { rateLimit: { max: 30, timeWindow: '1 minute' } };

export async function miscRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { profile, mail, promotions, events } = ctx.services;
  const auth = { authenticate: (req: FastifyRequest) => principalOf(req, ctx) };

  /** The caller if a valid token came with the request; null for anonymous calls. */
  const optionalPrincipal = (req: FastifyRequest): Promise<Principal | null> => {
    const t = tokenOf(req);
    return t ? ctx.services.tokens.resolve(t).catch(() => null) : Promise.resolve(null);
  };

  route(app, UserInfoUpdate, auth, async (q, req) => ok(await profile.updateUserInfo(await principalOf(req, ctx), q)));

  route(app, ProfileSet, auth, async (q, req) => {
    const p = await principalOf(req, ctx);
    if (!p.logged) throw unauthorized();
    const a = await profile.setProfile(p.accountId, q);
    return ok({
      first_name: a.first_name,
      last_name: a.last_name,
      occupation: a.occupation,
      occupation_other: a.occupation_other,
    });
  });

  route(app, MailUnsubscribe, async (q, req) =>
    ok(await mail.unsubscribe(q.email, q.sig, await optionalPrincipal(req))),
  );

  route(app, EmailStatus, LOOKUP_RATE_LIMIT, async (q, req) =>
    ok(await mail.emailStatus(q.email, q.sig, await optionalPrincipal(req))),
  );

  route(app, CountDown, async (_q, req) => ok(await promotions.countDown(await principalOf(req, ctx))));

  route(app, ShareCode, async (_q, req) => ok(await promotions.shareCode(await principalOf(req, ctx))));

  // Spec §7 names GET for these two, and they record something: a GET changes state only with the token
  // in the query (or body) — a cookie alone, which a cross-site link or <img> would carry, is refused.
  const explicitPrincipal = (req: FastifyRequest) => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return ctx.services.tokens.resolve(text(q.user_token) ?? text(q.guest_token_v2) ?? text(q.token));
  };

  route(app, ShareBind, { authenticate: explicitPrincipal }, async (q, req) =>
    ok(await promotions.shareBind(await explicitPrincipal(req), q.type, q.code)),
  );

  route(app, Checkin, async (_q, req) => ok(await promotions.checkin(await explicitPrincipal(req))));

  /** Analytics: {event, data?} (or `payload`) with an object or its JSON string; anonymous reports are kept too. */
  route(app, Report, REPORT_RATE_LIMIT, async (q, req) => {
    let data: unknown = q.data ?? q.payload ?? {};
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        data = undefined;
      }
    }
    // JSON text must hold an object too (the schema checks the object form)
    if (!data || typeof data !== 'object' || Array.isArray(data))
      throw paramError('reportDataInvalid', { max: EVENT_PAYLOAD_MAX_CHARS });
    const p = await optionalPrincipal(req);
    const id = await events
      .record(q.event, p?.accountId ?? null, data as Record<string, unknown>)
      .catch((e: unknown) => {
        if (e instanceof RangeError) throw paramError('reportDataInvalid', { max: EVENT_PAYLOAD_MAX_CHARS });
        throw e;
      });
    return ok({ event_id: id });
  });
}
