/** The content-site account pages' calls: register, login, logout, me (sessions in the pixmill_session cookie). */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { SESSION_COOKIE, SESSION_TTL_MS } from '../../services/accounts.js';
import { ok } from '../envelope.js';
import { bodyOf, fieldsOf } from '../params.js';
import { unauthorized } from '../../errors.js';
import { principalOf } from '../auth.js';
import type { Account } from '../../repositories/schema.js';

export function sessionIdOf(req: FastifyRequest): string | undefined {
  return req.cookies?.[SESSION_COOKIE] || undefined;
}

function setSession(req: FastifyRequest, reply: FastifyReply, id: string) {
  reply.setCookie(SESSION_COOKIE, id, { path: '/', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https', maxAge: SESSION_TTL_MS / 1000 });
}

/** Password guessing and mass sign-ups are slowed per client address. */
const FORM_RATE_LIMIT = { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } };

export async function accountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const accounts = ctx.services.accounts;
  const tokens = ctx.services.tokens;

  app.post('/api/account/register', FORM_RATE_LIMIT, async (req, reply) => {
    const b = bodyOf(req);
    const account = await accounts.register({ email: b.email, password: b.password, confirm_password: b.confirm_password });
    // Registering logs the new user in, like the site's register page.
    const { sessionId } = await accounts.login({ email: account.email, password: b.password }, sessionIdOf(req));
    setSession(req, reply, sessionId);
    return ok({ ...accounts.view(account), user_token: await tokens.userTokenFor(account.id) });
  });

  app.post('/api/account/login', FORM_RATE_LIMIT, async (req, reply) => {
    const b = bodyOf(req);
    const { sessionId, account } = await accounts.login({ email: b.email, password: b.password }, sessionIdOf(req));
    setSession(req, reply, sessionId);
    return ok({ ...accounts.view(account), user_token: await tokens.userTokenFor(account.id) });
  });

  app.post('/api/account/logout', async (req, reply) => {
    await accounts.logout(sessionIdOf(req));
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return ok(null);
  });

  app.get('/api/account/me', async (req) => {
    const account = await accounts.sessionAccount(sessionIdOf(req));
    if (!account) throw unauthorized();
    return ok(accounts.view(account));
  });

  /** The logged-in caller: the session cookie, else a user token (the workspace's calls carry one). */
  const caller = async (req: FastifyRequest): Promise<Account> => {
    const bySession = await accounts.sessionAccount(sessionIdOf(req));
    if (bySession) return bySession;
    const p = await principalOf(req, ctx).catch(() => null);
    if (!p?.logged) throw unauthorized();
    return p.account;
  };

  app.post('/api/account/password', FORM_RATE_LIMIT, async (req, reply) => {
    const b = bodyOf(req);
    const a = await caller(req);
    const { sessionId } = await accounts.changePassword(a.id, { old_password: b.old_password, password: b.password, confirm_password: b.confirm_password });
    setSession(req, reply, sessionId);
    return ok(null);
  });

  app.post('/api/v2/survey/set', async (req) => {
    const b = await fieldsOf(req);
    const a = await caller(req);
    return ok(await accounts.setSurvey(a.id, { occupations: b.occupations, occupation_other: b.occupation_other }));
  });
}
