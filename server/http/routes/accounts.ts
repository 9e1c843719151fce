/** The content-site account pages' calls: register, login, logout, me (sessions in the pixmill_session cookie). */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { SESSION_COOKIE, SESSION_TTL_MS } from '../../services/sessions.js';
import type { LoggedIn } from '../../services/accounts.js';
import { ok } from '../envelope.js';
import { route } from '../schemaRoute.js';
import { ChangePassword, Login, Logout, Me, Register, SurveySet } from '../../../src/shared/schemas/accounts.js';
import { unauthorized } from '../../errors.js';
import { principalOf, tokenOf } from '../auth.js';
import type { Account } from '../../repositories/schema.js';
import { SIGNED_IN_COOKIE } from '../../../src/shared/domain/account.js';

export function sessionIdOf(req: FastifyRequest): string | undefined {
  return req.cookies?.[SESSION_COOKIE] || undefined;
}

/** The readable hint beside the session cookie (SIGNED_IN_COOKIE): "1", nothing a script could use. */
function setSignedInHint(req: FastifyRequest, reply: FastifyReply) {
  reply.setCookie(SIGNED_IN_COOKIE, '1', {
    path: '/',
    httpOnly: false,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    maxAge: SESSION_TTL_MS / 1000,
  });
}

function setSession(req: FastifyRequest, reply: FastifyReply, id: string) {
  reply.setCookie(SESSION_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    maxAge: SESSION_TTL_MS / 1000,
  });
  setSignedInHint(req, reply);
}

function clearSession(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  reply.clearCookie(SIGNED_IN_COOKIE, { path: '/' });
}

/** Password guessing and mass sign-ups are slowed per client address (and per email by the login lockout). */
const FORM_RATE_LIMIT = { rateLimit: { max: 30, timeWindow: '1 minute' } };

export async function accountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { accounts, sessions, tokens, profile } = ctx.services;

  // A browser holding a session cookie but not its hint (a session from before the hint, or the hint's
  // cookie lost) gets the hint back, so its page asks who is signed in; a stale session is then refused
  // once by /api/account/me, which clears both.
  app.addHook('onRequest', async (req, reply) => {
    if (sessionIdOf(req) && !req.cookies?.[SIGNED_IN_COOKIE]) setSignedInHint(req, reply);
  });

  /** Sets the session cookie and answers the account view with the new user token. */
  const loggedIn = (req: FastifyRequest, reply: FastifyReply, l: LoggedIn) => {
    setSession(req, reply, l.sessionId);
    return ok({ ...accounts.view(l.account), user_token: l.userToken });
  };

  route(app, Register, FORM_RATE_LIMIT, async (b, req, reply) =>
    loggedIn(req, reply, await accounts.registerAndLogin(b, sessionIdOf(req))),
  );

  route(app, Login, FORM_RATE_LIMIT, async (b, req, reply) =>
    loggedIn(req, reply, await accounts.login(b, sessionIdOf(req))),
  );

  /** Ends the session, the user tokens handed to it and the user token sent; unbinds the guest token sent. */
  route(app, Logout, async (b, req, reply) => {
    const sid = sessionIdOf(req);
    const account = await sessions.account(sid);
    await sessions.end(sid);
    // Without a session the user token sent is still ended: holding it is what logging out needs.
    await tokens.revokeForLogout(
      null,
      [tokenOf(req, ['user_token', 'token']), b.guest_token_v2 ?? req.cookies?.guest_token],
      account?.id ?? null,
    );
    clearSession(reply);
    return ok(null);
  });

  route(app, Me, async (_f, req, reply) => {
    const account = await sessions.account(sessionIdOf(req));
    if (!account) {
      // No session behind the cookie (ended, expired): the browser drops it and its hint.
      if (sessionIdOf(req) || req.cookies?.[SIGNED_IN_COOKIE]) clearSession(reply);
      throw unauthorized();
    }
    return ok(accounts.view(account));
  });

  /** The logged-in caller: the session cookie, else a user token (the workspace's calls carry one). */
  const caller = async (req: FastifyRequest): Promise<Account> => {
    const bySession = await sessions.account(sessionIdOf(req));
    if (bySession) return bySession;
    const p = await principalOf(req, ctx).catch(() => null);
    if (!p?.logged) throw unauthorized();
    return p.account;
  };

  /** Every other session and user token of the account ends; the answer carries the caller's new user token. */
  route(app, ChangePassword, { ...FORM_RATE_LIMIT, authenticate: caller }, async (b, req, reply) => {
    const a = await caller(req);
    const { sessionId, userToken } = await accounts.changePassword(a.id, b);
    setSession(req, reply, sessionId);
    return ok({ user_token: userToken });
  });

  route(app, SurveySet, { authenticate: caller }, async (b, req) => {
    const a = await caller(req);
    return ok(await profile.setSurvey(a.id, b));
  });
}
