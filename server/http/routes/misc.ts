/** Misc calls of spec §7: user info and profile, mail, countdown, promotions, analytics reports. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../services/tokens.js';
import { principalOf, tokenOf } from '../auth.js';
import { ok } from '../envelope.js';
import { fieldsOf, str, type Fields } from '../params.js';
import { paramError, unauthorized } from '../../errors.js';

/**
 * Anonymous callers may write analytics and look up addresses, but never without limit (issue 28):
 * per client address and minute. A page sends a few reports per action; 60 a minute is far above that.
 */
export const REPORT_RATE_LIMIT = { config: { rateLimit: { max: 60, timeWindow: '1 minute' } } };
/** Address look-ups answer signed-in callers about their own address only, and are limited as well. */
export const LOOKUP_RATE_LIMIT = { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } };

export async function miscRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { profile, mail, promotions, events } = ctx.services;

  /** The caller if a valid token came with the request; null for anonymous calls. */
  const optionalPrincipal = (req: FastifyRequest): Promise<Principal | null> => {
    const t = tokenOf(req);
    return t ? ctx.services.tokens.resolve(t).catch(() => null) : Promise.resolve(null);
  };

  app.post('/api/v2/user_info/update', async (req) => {
    const q = (await fieldsOf(req));
    return ok(await profile.updateUserInfo(await principalOf(req, ctx), { locale: q.locale, currency: q.currency, first_name: q.first_name, last_name: q.last_name }));
  });

  app.post('/api/v2/profile/set', async (req) => {
    const p = await principalOf(req, ctx);
    if (!p.logged) throw unauthorized();
    const q = (await fieldsOf(req));
    const a = await profile.setProfile(p.accountId, { first_name: q.first_name, last_name: q.last_name, occupation: q.occupation, occupation_other: q.occupation_other });
    return ok({ first_name: a.first_name, last_name: a.last_name, occupation: a.occupation, occupation_other: a.occupation_other });
  });

  app.post('/api/mail/unsubscribe', async (req) => {
    const q = (await fieldsOf(req));
    return ok(await mail.unsubscribe(q.email, q.sig, await optionalPrincipal(req)));
  });

  app.post('/api/v2/common/email_status', LOOKUP_RATE_LIMIT, async (req) => {
    const q = await fieldsOf(req);
    return ok(await mail.emailStatus(q.email, q.sig, await optionalPrincipal(req)));
  });

  app.post('/api/v2/common/count_down', async (req) => ok(await promotions.countDown(await principalOf(req, ctx))));

  app.get('/api/promotion/share/code', async (req) => ok(await promotions.shareCode(await principalOf(req, ctx))));

  // Spec §7 names GET for these two, and they record something: a GET changes state only with the token
  // in the query (or body) — a cookie alone, which a cross-site link or <img> would carry, is refused.
  const explicitPrincipal = (q: Fields) => ctx.services.tokens.resolve(str(q.user_token) ?? str(q.guest_token_v2) ?? str(q.token));

  app.get('/api/promotion/share/bind', async (req) => {
    const q = await fieldsOf(req);
    return ok(await promotions.shareBind(await explicitPrincipal(q), q.type, q.code));
  });

  app.get('/api/promotion/giveaway/checkin', async (req) => ok(await promotions.checkin(await explicitPrincipal(await fieldsOf(req)))));

  /** Analytics: {event, data?} (or `payload`) with an object or its JSON string; anonymous reports are kept too. */
  app.post('/api/report', REPORT_RATE_LIMIT, async (req) => {
    const q = (await fieldsOf(req));
    if (!events.isReportEvent(q.event)) throw paramError('unknown event');
    let data: unknown = q.data ?? q.payload ?? {};
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        throw paramError('data must be a JSON object');
      }
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw paramError('data must be a JSON object');
    const p = await optionalPrincipal(req);
    const id = await events.record(q.event, p?.accountId ?? null, data as Record<string, unknown>).catch((e: unknown) => {
      if (e instanceof RangeError) throw paramError('data is too large');
      throw e;
    });
    return ok({ event_id: id });
  });
}
