/**
 * Login sessions of the content site (cookie `pixmill_session`). The cookie value is 256-bit random;
 * only its SHA-256 is stored. A session lives USER_TOKEN_TTL_MS after its last use (sliding, written
 * at most once an hour), ends on logout and, except the caller's new one, on a password change.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../repositories/db.js';
import type { Account } from '../repositories/schema.js';
import { SessionRepository } from '../repositories/sessionRepository.js';
import { AccountRepository } from '../repositories/accountRepository.js';
import { keepAlive, secretHash, USER_TOKEN_TTL_MS } from './tokens.js';
import type { ServiceBase } from './base.js';
import type { PlanService } from './plans.js';
import type { TokenService } from './tokens.js';

/** What this service uses: the base (database, configuration, blobs) and the services it calls. */
type Deps = ServiceBase & { services: { plans: PlanService; tokens: TokenService } };

export const SESSION_COOKIE = 'pixmill_session';
export const SESSION_TTL_MS = USER_TOKEN_TTL_MS;

export interface NewSession {
  /** the cookie value (given to the browser once, never stored) */
  sessionId: string;
  /** its stored hash (user tokens handed to this session carry it) */
  sessionHash: string;
}

export class SessionService {
  private readonly sessions: SessionRepository;
  private readonly accounts: AccountRepository;

  constructor(private readonly deps: Deps) {
    this.sessions = new SessionRepository(deps.db);
    this.accounts = new AccountRepository(deps.db);
  }

  /** A new session for the account (pass a transaction as `db` to join it). */
  async start(accountId: number, db: Db = this.deps.db): Promise<NewSession> {
    const sessionId = randomBytes(32).toString('base64url');
    const sessionHash = secretHash(sessionId);
    const now = Date.now();
    await new SessionRepository(db).insert({
      id_hash: sessionHash,
      account_id: accountId,
      created_at: now,
      expires_at: now + SESSION_TTL_MS,
    });
    return { sessionId, sessionHash };
  }

  /** Ends a session and every user token handed to it. */
  async end(sessionId: string | undefined): Promise<void> {
    if (!sessionId) return;
    const hash = secretHash(sessionId);
    await this.sessions.delete(hash);
    await this.deps.services.tokens.revokeForLogout(hash, [], null);
  }

  /** Every session of the account except `keepHash` (password change). */
  async endAll(accountId: number, keepHash: string | undefined, db: Db = this.deps.db): Promise<void> {
    await new SessionRepository(db).deleteForAccount(accountId, keepHash);
  }

  /** The account of a live session, or null; a used session's expiry slides forward. */
  async account(sessionId: string | undefined, now = Date.now()): Promise<Account | null> {
    const hash = this.hashOf(sessionId);
    if (!hash) return null;
    const s = await keepAlive(await this.sessions.find(hash), SESSION_TTL_MS, now, {
      drop: () => this.end(sessionId),
      extend: (at) => this.sessions.setExpiry(hash, at),
    });
    if (!s) return null;
    const a = await this.accounts.byId(s.account_id);
    return a ? this.deps.services.plans.settleExpiry(a) : null;
  }

  /** The stored hash of a well-formed cookie value. */
  hashOf(sessionId: string | undefined): string | null {
    return sessionId && sessionId.length <= 100 ? secretHash(sessionId) : null;
  }
}
