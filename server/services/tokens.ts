/**
 * Guest and user tokens: creation, resolution to an account, expiry and revocation, and binding a
 * guest's work to a login. Only a token's SHA-256 is stored (tokens are 192-bit random, so a plain
 * hash is enough): the database holds nothing anyone can call the API with.
 */
import { createHash, randomBytes } from 'node:crypto';
import { PLAN_LIMITS } from '../../src/shared/domain/plans.js';
import { paramError, unauthorized } from '../errors.js';
import { AccountRepository } from '../repositories/accountRepository.js';
import type { Db } from '../repositories/db.js';
import type { ProgressRow } from '../repositories/jobRepository.js';
import { TokenRepository, type TokenAccountRow } from '../repositories/tokenRepository.js';
import type { Principal, ServiceBase } from './base.js';
import type { LicenseService } from './license.js';
import type { PlanService } from './plans.js';

/** What this service uses: the base (database, configuration, blobs) and the services it calls. */
type Deps = ServiceBase & { services: { license: LicenseService; plans: PlanService } };

/** Who calls: defined beside the services' base (base.ts), where every service reads it from. */
export type { Principal } from './base.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Idle lifetimes (sliding): a user token or session lives 30 days after its last use. */
export const USER_TOKEN_TTL_MS = 30 * DAY_MS;
/** A guest token lives a year after its last use (the guest's credits cookie lasts 365 days, spec §9). */
export const GUEST_TOKEN_TTL_MS = 365 * DAY_MS;
/** A used token's expiry moves forward at most once an hour, so requests don't each write. */
export const TOKEN_REFRESH_MS = HOUR_MS;
/** User tokens kept per session: every page load asks for one; older ones beyond this are dropped. */
export const TOKENS_PER_SESSION = 20;

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;
const newToken = (prefix: 'g' | 'u') => `${prefix}_${randomBytes(24).toString('base64url')}`;

/** The stored form of a token or session id. */
export const secretHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * The sliding-expiry rule shared by tokens and sessions: null when expired, else the new expiry to
 * store (or the current one when it was refreshed less than TOKEN_REFRESH_MS ago).
 */
export function slideExpiry(
  expiresAt: number,
  ttl: number,
  now: number,
): { expiresAt: number; changed: boolean } | null {
  if (expiresAt <= now) return null;
  const lastRefresh = expiresAt - ttl;
  return now - lastRefresh >= TOKEN_REFRESH_MS
    ? { expiresAt: now + ttl, changed: true }
    : { expiresAt, changed: false };
}

/** A stored token or session row: null when missing or expired (then `drop`ped), else the row, its expiry `extend`ed when due. */
export async function keepAlive<T extends { expires_at: number }>(
  row: T | undefined,
  ttl: number,
  now: number,
  store: { drop(): Promise<void>; extend(at: number): Promise<void> },
): Promise<T | null> {
  if (!row) return null;
  const slid = slideExpiry(row.expires_at, ttl, now);
  if (!slid) {
    await store.drop();
    return null;
  }
  if (slid.changed) await store.extend(slid.expiresAt);
  return row;
}

export class TokenService {
  private readonly tokens: TokenRepository;

  constructor(private readonly deps: Deps) {
    this.tokens = new TokenRepository(deps.db);
  }

  /** POST /api/v2/guest_token: a new guest account with the guest's credits. */
  async createGuest(): Promise<{ token: string; accountId: number }> {
    const now = Date.now();
    const token = newToken('g');
    const lim = PLAN_LIMITS.guest;
    const accountId = await this.deps.db.transaction().execute(async (trx) => {
      const id = await new AccountRepository(trx).insert({
        kind: 'guest',
        pid: 0,
        max_num: lim.credits,
        compress_max: lim.compressCredits,
        created_at: now,
        updated_at: now,
      });
      await new TokenRepository(trx).insert({
        token_hash: secretHash(token),
        kind: 'guest',
        account_id: id,
        bound_account_id: null,
        created_at: now,
        expires_at: now + GUEST_TOKEN_TTL_MS,
        session_hash: null,
      });
      return id;
    });
    return { token, accountId };
  }

  /** Any live token (guest or user) → the account it acts for. Unknown, malformed or expired → code 6, HTTP 401. */
  async resolve(token: string | undefined, now = Date.now()): Promise<Principal> {
    return (await this.resolveWith(token, undefined, now)).principal;
  }

  /**
   * The progress poll: the caller's principal and its work `transId` (undefined when missing or
   * someone else's) read in the same round trip as the token.
   */
  async resolveWithProgress(
    token: string | undefined,
    transId: string,
    now = Date.now(),
  ): Promise<{ principal: Principal; job: ProgressRow | undefined }> {
    return this.resolveWith(token, transId, now);
  }

  private async resolveWith(
    token: string | undefined,
    transId: string | undefined,
    now: number,
  ): Promise<{ principal: Principal; job: ProgressRow | undefined }> {
    const found = await this.liveRow(token, now, transId);
    if (!found) throw unauthorized();
    // A plan past its end date turns into `expired` with no credits here, before any rule reads it.
    const account = await this.deps.services.plans.settleExpiry(found.account);
    const license = this.deps.services.license;
    return {
      principal: {
        token: token!,
        accountId: account.id,
        account,
        level: license.levelOf(account),
        limits: license.limitsOf(account),
        logged: account.kind === 'user',
      },
      job: found.job,
    };
  }

  /**
   * A live token with its account (and the asked work) in one read, its expiry slid forward when due
   * (at most once per TOKEN_REFRESH_MS); null when unknown, expired (then deleted) or its account is gone.
   */
  private async liveRow(token: string | undefined, now: number, transId?: string): Promise<TokenAccountRow | null> {
    if (!token || !TOKEN_SHAPE.test(token)) return null;
    const hash = secretHash(token);
    const found = await this.tokens.findWithAccount(hash, transId);
    const row = found?.token;
    // An expired guest token is kept (its guest account and works stay addressable by the operator); a user token goes.
    const live = await keepAlive(row, row?.kind === 'guest' ? GUEST_TOKEN_TTL_MS : USER_TOKEN_TTL_MS, now, {
      drop: async () => (row?.kind === 'user' ? this.tokens.delete(hash) : undefined),
      extend: (at) => this.tokens.setExpiry(hash, at),
    });
    return live ? found! : null;
  }

  /**
   * A new user token for a registered account (login, register, site ajax get_user_token). Only its
   * hash is kept, so an existing token can never be handed out again. `sessionHash` ties it to the
   * session it was given to: ending that session revokes it.
   */
  async issueUserToken(accountId: number, sessionHash: string | null = null, db: Db = this.deps.db): Promise<string> {
    const token = newToken('u');
    const now = Date.now();
    const repo = new TokenRepository(db);
    await repo.insert({
      token_hash: secretHash(token),
      kind: 'user',
      account_id: accountId,
      bound_account_id: null,
      created_at: now,
      expires_at: now + USER_TOKEN_TTL_MS,
      session_hash: sessionHash,
    });
    if (sessionHash) await repo.trimSession(sessionHash, TOKENS_PER_SESSION);
    return token;
  }

  /** Kept for callers that only need some valid user token (tests, benches): a new one each call. */
  userTokenFor(accountId: number): Promise<string> {
    return this.issueUserToken(accountId);
  }

  /**
   * Logout: the tokens handed to the session and the user token the caller presented stop working; a
   * presented guest token bound to the account acts for its guest again (a bound guest token is as
   * good as a login, and the browser keeps it for years).
   */
  async revokeForLogout(
    sessionHash: string | null,
    presented: (string | undefined)[],
    accountId: number | null,
  ): Promise<void> {
    if (sessionHash) await this.tokens.deleteForSession(sessionHash);
    for (const t of presented) {
      if (!t || !TOKEN_SHAPE.test(t)) continue;
      const row = await this.tokens.find(secretHash(t));
      if (row?.kind === 'user' && (accountId === null || row.account_id === accountId))
        await this.tokens.delete(row.token_hash);
      if (row?.kind === 'guest' && accountId !== null && row.bound_account_id === accountId)
        await this.tokens.bindTo(row.token_hash, null);
    }
    // A logout by the session cookie alone sends no guest token, and the one this browser bound kept
    // acting as the account: every guest token bound to the account is unbound. Their
    // guests keep their tokens; signed-in devices go on with their own user tokens.
    if (accountId !== null) await this.tokens.unbindGuests(accountId);
  }

  /** Password change: every user token of the account stops working and bound guest tokens are unbound (in the caller's transaction). */
  async revokeAll(accountId: number, db: Db = this.deps.db): Promise<void> {
    const repo = new TokenRepository(db);
    await repo.deleteUserTokens(accountId);
    await repo.unbindGuests(accountId);
  }

  /**
   * POST /api/v2/bind_token: after login the guest's uploads, jobs and workflows move to the account,
   * and the guest token acts for the account until unbound.
   */
  async bind(
    userToken: string | undefined,
    guestToken: string | undefined,
  ): Promise<{ moved_uploads: number; moved_jobs: number }> {
    const user = await this.resolve(userToken);
    if (!user.logged) throw paramError('notUserToken');
    const guest = await this.guestRow(guestToken);
    if (guest.account_id === user.accountId) return { moved_uploads: 0, moved_jobs: 0 };
    return this.deps.db.transaction().execute(async (trx) => {
      const repo = new TokenRepository(trx);
      const moved = await repo.moveWork(guest.account_id, user.accountId);
      await repo.bindTo(guest.token_hash, user.accountId);
      return { moved_uploads: moved.uploads, moved_jobs: moved.jobs };
    });
  }

  /** POST /api/v2/unbind_token (logout): the guest token acts for its own guest account again. */
  async unbind(userToken: string | undefined, guestToken: string | undefined): Promise<void> {
    const user = await this.resolve(userToken);
    const guest = await this.guestRow(guestToken);
    if (guest.bound_account_id !== user.accountId) throw paramError('guestNotBound');
    await this.tokens.bindTo(guest.token_hash, null);
  }

  private async guestRow(guestToken: string | undefined) {
    if (!guestToken || !TOKEN_SHAPE.test(guestToken)) throw paramError('fieldRequired', { field: 'guest_token_v2' });
    const row = (await this.liveRow(guestToken, Date.now()))?.token;
    if (!row || row.kind !== 'guest') throw paramError('guestTokenUnknown');
    return row;
  }
}
