/**
 * The content site's ajax endpoint (spec §7 "site ajax endpoint"): form posts with action, pid and
 * nonce. Nonces are HMACs bound to the session; actions hand out the user token or record the
 * credit notifications the workspace sends on upload, start and download.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { tokenOf } from '../auth.js';
import { ok } from '../envelope.js';
import { route } from '../schemaRoute.js';
import { Nonce, SiteAjax } from '../../../src/shared/schemas/site.js';
import { paramError, unauthorized } from '../../errors.js';
import { sessionIdOf } from './accounts.js';

/** action (either spelling) → the event kind recorded. */
const CREDIT_ACTIONS: Record<string, string> = {
  credit_transform: 'credit-transform',
  credit_upload: 'credit-upload',
  credit_download: 'credit-download',
};

export async function siteAjaxRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { sessions, nonces, tokens, events } = ctx.services;

  /** The caller's account id for an event: the session's, else the token's; null if neither. */
  async function callerAccount(req: FastifyRequest): Promise<number | null> {
    const a = await sessions.account(sessionIdOf(req));
    if (a) return a.id;
    const t = tokenOf(req);
    return t
      ? tokens.resolve(t).then(
          (p) => p.accountId,
          () => null,
        )
      : null;
  }

  route(app, Nonce, async (_f, req) => ok({ nonce: nonces.issue(sessionIdOf(req)) }));

  // The workspace sends a credit notification per upload, start and download; 120 a minute per client
  // address covers a bulk batch and stops a flood of anonymous event rows.
  route(app, SiteAjax, { rateLimit: { max: 120, timeWindow: '1 minute' } }, async (f, req) => {
    const action = f.action.replace(/-/g, '_');
    const sid = sessionIdOf(req);
    if (action === 'nonce') return ok({ nonce: nonces.issue(sid) });
    if (!nonces.check(f.nonce, sid)) throw paramError('validationInvalid', { field: 'nonce' });
    if (action === 'get_user_token') {
      // A new token each time (only hashes are stored), tied to the session so logout ends it.
      const account = await sessions.account(sid);
      if (!account) throw unauthorized();
      return ok({ user_token: await tokens.issueUserToken(account.id, sessions.hashOf(sid)) });
    }
    // the schema admits only the listed actions: what is left is a credit notification
    const kind = CREDIT_ACTIONS[action]!;
    const payload = { pid: f.pid ?? null, trans_id: f.trans_id ?? null, uid: f.uid ?? null };
    const id = await events.record(kind, await callerAccount(req), payload);
    return ok({ event_id: id });
  });
}
