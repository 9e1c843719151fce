/** Guest and user tokens: creation, resolution to an account, and binding a guest's work to a login. */
import { randomBytes } from 'node:crypto';
import { PLAN_LIMITS, type Level, type PlanLimits } from '../../src/domain/plans.js';
import { ApiError, unauthorized } from '../errors.js';
import { CODE } from '../../src/domain/codes.js';
import type { Account } from '../repositories/schema.js';
import type { Deps } from './index.js';

export interface Principal {
  token: string;
  accountId: number;
  account: Account;
  level: Level;
  limits: PlanLimits;
  /** a registered account (not a guest) */
  logged: boolean;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;
const newToken = (prefix: 'g' | 'u') => `${prefix}_${randomBytes(24).toString('base64url')}`;

export class TokenService {
  constructor(private readonly deps: Deps) {}

  /** POST /api/v2/guest_token: a new guest account with the guest's credits. */
  async createGuest(): Promise<{ token: string; accountId: number }> {
    const now = Date.now();
    const token = newToken('g');
    const lim = PLAN_LIMITS.guest;
    const accountId = await this.deps.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('accounts')
        .values({ kind: 'guest', pid: 0, max_num: lim.credits, compress_max: lim.compressCredits, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('tokens').values({ token, kind: 'guest', account_id: id, bound_account_id: null, created_at: now }).execute();
      return id;
    });
    return { token, accountId };
  }

  /** Any token (guest or user) → the account it acts for. Unknown or malformed → code 6, HTTP 401. */
  async resolve(token: string | undefined): Promise<Principal> {
    if (!token || !TOKEN_SHAPE.test(token)) throw unauthorized();
    const row = await this.deps.db.selectFrom('tokens').selectAll().where('token', '=', token).executeTakeFirst();
    if (!row) throw unauthorized();
    const accountId = row.bound_account_id ?? row.account_id;
    const found = await this.deps.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
    if (!found) throw unauthorized();
    // A plan past its end date turns into `expired` with no credits here, before any rule reads it.
    const account = await this.deps.services.accounts.settleExpiry(found);
    const license = this.deps.services.license;
    const level = license.levelOf(account);
    return { token, accountId, account, level, limits: license.limitsOf(account), logged: account.kind === 'user' };
  }

  /** The user token of a registered account, created on first use (handed out by the site ajax endpoint). */
  async userTokenFor(accountId: number): Promise<string> {
    const db = this.deps.db;
    const existing = await db.selectFrom('tokens').select('token').where('account_id', '=', accountId).where('kind', '=', 'user').executeTakeFirst();
    if (existing) return existing.token;
    const token = newToken('u');
    await db.insertInto('tokens').values({ token, kind: 'user', account_id: accountId, bound_account_id: null, created_at: Date.now() }).execute();
    return token;
  }

  /**
   * POST /api/v2/bind_token: after login the guest's uploads, jobs and workflows move to the account,
   * and the guest token acts for the account until unbound.
   */
  async bind(userToken: string | undefined, guestToken: string | undefined): Promise<{ moved_uploads: number; moved_jobs: number }> {
    const user = await this.resolve(userToken);
    if (!user.logged) throw new ApiError(CODE.PARAM_ERROR, 'token must belong to a logged-in user');
    const guest = await this.guestRow(guestToken);
    return this.deps.db.transaction().execute(async (trx) => {
      const from = guest.account_id;
      const to = user.accountId;
      if (from === to) return { moved_uploads: 0, moved_jobs: 0 };
      const up = await trx.updateTable('uploads').set({ account_id: to }).where('account_id', '=', from).executeTakeFirst();
      const jobs = await trx.updateTable('jobs').set({ account_id: to }).where('account_id', '=', from).executeTakeFirst();
      await trx.updateTable('workflows').set({ account_id: to }).where('account_id', '=', from).execute();
      await trx.updateTable('tokens').set({ bound_account_id: to }).where('token', '=', guest.token).execute();
      return { moved_uploads: Number(up.numUpdatedRows), moved_jobs: Number(jobs.numUpdatedRows) };
    });
  }

  /** POST /api/v2/unbind_token (logout): the guest token acts for its own guest account again. */
  async unbind(userToken: string | undefined, guestToken: string | undefined): Promise<void> {
    const user = await this.resolve(userToken);
    const guest = await this.guestRow(guestToken);
    if (guest.bound_account_id !== user.accountId) throw new ApiError(CODE.PARAM_ERROR, 'guest token is not bound to this user');
    await this.deps.db.updateTable('tokens').set({ bound_account_id: null }).where('token', '=', guest.token).execute();
  }

  private async guestRow(guestToken: string | undefined) {
    if (!guestToken || !TOKEN_SHAPE.test(guestToken)) throw new ApiError(CODE.PARAM_ERROR, 'guest_token_v2 required');
    const row = await this.deps.db.selectFrom('tokens').selectAll().where('token', '=', guestToken).executeTakeFirst();
    if (!row || row.kind !== 'guest') throw new ApiError(CODE.PARAM_ERROR, 'unknown guest token');
    return row;
  }
}
