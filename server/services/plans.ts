/**
 * Plans of registered accounts (spec §3, §4): putting an account on a plan with its allotment,
 * buying or renewing a period, expiry (credits 0, the code 10012 path). Every change of totals
 * writes a ledger row in the same transaction. Callers inside a transaction use the *In methods.
 *
 * API pack credits (docs/api.md) survive every plan change: plan credits are spent first, pack
 * credits last, so of the credits left at a change min(left, pack_credits) are the pack's. They are
 * carried into the new balance; the rest, the plan's unused credits, expire (an `expire` row) —
 * except on a purchase of another paid plan while the paid plan is live (Basic -> Pro, or back):
 * those credits were paid for and are still valid, so they are carried over too (issue 47; the
 * pricing page and the terms say so).
 */
import { randomBytes } from 'node:crypto';
import { PLAN_PERIOD_DAYS } from '../../src/shared/domain/constants.js';
import { creditsLeft, PLAN_LIMITS, planIdFor } from '../../src/shared/domain/plans.js';
import { paramError } from '../errors.js';
import { AccountRepository } from '../repositories/accountRepository.js';
import type { Db } from '../repositories/db.js';
import type { Account } from '../repositories/schema.js';
import type { ServiceBase } from './base.js';
import type { LicenseService } from './license.js';

/** What this service uses: the base (database, configuration, blobs) and the services it calls. */
type Deps = ServiceBase & { services: { license: LicenseService } };

export type PlanLevel = 'register' | 'basic' | 'pro';
const DAY_MS = 24 * 60 * 60 * 1000;
const grantRef = (what: string, accountId: number, now: number) =>
  `${what}:${accountId}:${now}:${randomBytes(4).toString('hex')}`;

/**
 * The API pack credits an account still owns: plan credits go first, so whatever is left up to
 * pack_credits is the pack's (pack_credits itself only shrinks at a plan change).
 */
export function packCreditsOwned(a: Pick<Account, 'max_num' | 'used_num' | 'pack_credits'>): number {
  return Math.min(creditsLeft(a.max_num, a.used_num), a.pack_credits);
}

/**
 * A plan change: the credits it carries over (the pack's, and the plan's own when `keepPlanCredits`)
 * and the pack part of them, and the plan credits it lets expire.
 */
function carryOver(a: Account, keepPlanCredits: boolean): { carry: number; pack: number; expire: number } {
  const pack = packCreditsOwned(a);
  const left = creditsLeft(a.max_num, a.used_num);
  return keepPlanCredits ? { carry: left, pack, expire: 0 } : { carry: pack, pack, expire: left - pack };
}

export class PlanService {
  private readonly accounts: AccountRepository;

  constructor(private readonly deps: Deps) {
    this.accounts = new AccountRepository(deps.db);
  }

  private inTransaction(fn: (trx: Db) => Promise<unknown>): Promise<unknown> {
    return this.deps.db.transaction().execute(fn);
  }

  private async registered(repo: AccountRepository, accountId: number): Promise<Account> {
    const a = await repo.byIdOrThrow(accountId);
    if (a.kind !== 'user') throw paramError('notRegistered');
    return a;
  }

  /**
   * Puts an account on a plan and grants that plan's credits: credits left become the plan's
   * allotment plus the pack credits still owned (max_num = used_num + credits + carry); the old
   * plan's unused credits expire. Both recorded in the ledger. For operators and tests.
   */
  async setPlan(accountId: number, level: PlanLevel, expiresAt: number | null = null): Promise<Account> {
    await this.inTransaction((trx) => this.setPlanIn(trx, accountId, level, expiresAt));
    return this.accounts.byIdOrThrow(accountId);
  }

  /**
   * setPlan inside the caller's transaction (a payment event applies it together with its own row).
   * `keepPlanCredits`: the unused credits of the plan being left are kept instead of expiring.
   */
  async setPlanIn(
    trx: Db,
    accountId: number,
    level: PlanLevel,
    expiresAt: number | null,
    keepPlanCredits = false,
  ): Promise<void> {
    const repo = new AccountRepository(trx);
    const lim = PLAN_LIMITS[level];
    const now = Date.now();
    await repo.lock(accountId, now);
    const a = await this.registered(repo, accountId);
    const { carry, pack, expire } = carryOver(a, keepPlanCredits);
    await repo.update(accountId, {
      pid: planIdFor(level),
      plan_expires_at: expiresAt,
      is_expired: 0,
      max_num: a.used_num + lim.credits + carry,
      pack_credits: pack,
      compress_max: a.compress_used + lim.compressCredits,
      updated_at: now,
    });
    const ref = grantRef(`plan:${level}`, accountId, now);
    if (expire > 0) await repo.ledger(accountId, ref, 'expire', expire, now);
    await repo.ledger(accountId, ref, 'grant', lim.credits, now);
  }

  /**
   * Grants a paid plan for `days` (a purchase, or an operator's grant). Buying the plan one already
   * has extends it from its current expiry; another plan starts now, and the live paid plan's unused
   * credits come along (an upgrade never takes away what was paid for).
   */
  async grantPlanIn(trx: Db, accountId: number, level: 'basic' | 'pro', days = PLAN_PERIOD_DAYS): Promise<void> {
    const a = await new AccountRepository(trx).byIdOrThrow(accountId);
    const now = Date.now();
    const paidLive =
      (a.pid === planIdFor('basic') || a.pid === planIdFor('pro')) &&
      !this.deps.services.license.isExpired(a, now) &&
      a.plan_expires_at !== null;
    const same = paidLive && a.pid === planIdFor(level);
    const from = same ? Math.max(now, a.plan_expires_at!) : now;
    await this.setPlanIn(trx, accountId, level, from + days * DAY_MS, paidLive && !same);
  }

  async grantPlan(accountId: number, level: 'basic' | 'pro', days = PLAN_PERIOD_DAYS): Promise<Account> {
    await this.inTransaction((trx) => this.grantPlanIn(trx, accountId, level, days));
    return this.accounts.byIdOrThrow(accountId);
  }

  /** Renews the account's paid plan (basic/pro, live or expired) for another period with a fresh allotment. */
  async renewPlanIn(trx: Db, accountId: number, days = PLAN_PERIOD_DAYS): Promise<void> {
    const a = await new AccountRepository(trx).byIdOrThrow(accountId);
    const level = a.pid === planIdFor('pro') ? 'pro' : a.pid === planIdFor('basic') ? 'basic' : null;
    if (!level) throw paramError('noPlanToRenew');
    await this.grantPlanIn(trx, accountId, level, days);
  }

  async renewPlan(accountId: number, days = PLAN_PERIOD_DAYS): Promise<Account> {
    await this.inTransaction((trx) => this.renewPlanIn(trx, accountId, days));
    return this.accounts.byIdOrThrow(accountId);
  }

  /**
   * Ends the account's plan: level `expired` with guest-like limits (spec §4, §6): the plan's unused
   * credits go (an `expire` ledger row) and the guest allowance is granted instead (a `grant` row:
   * PLAN_LIMITS.expired.credits, 3), with guest-like compress credits; pack credits still owned stay. When those are spent a start
   * answers 10012 as for anyone out of credits. The plan id is kept so a renewal knows which plan it
   * was. Happens once: a second call (or a concurrent one) finds the account already expired and
   * changes nothing.
   */
  async expirePlanIn(trx: Db, accountId: number, now = Date.now()): Promise<boolean> {
    const repo = new AccountRepository(trx);
    await repo.lock(accountId, now);
    const a = await this.registered(repo, accountId);
    const planEnd = a.plan_expires_at !== null && a.plan_expires_at < now ? a.plan_expires_at : now;
    if (!(await repo.markExpired(accountId, planEnd, PLAN_LIMITS.expired.compressCredits, now))) return false;
    const { carry, expire } = carryOver(a, false);
    await repo.ledger(accountId, grantRef('expire', accountId, now), 'expire', expire, now);
    // markExpired left max_num = used_num (nothing left); the allowance and the pack credits go on top.
    const allowance = PLAN_LIMITS.expired.credits;
    await repo.update(accountId, { max_num: a.used_num + allowance + carry, pack_credits: carry, updated_at: now });
    await repo.ledger(accountId, grantRef('plan:expired', accountId, now), 'grant', allowance, now);
    return true;
  }

  async expirePlan(accountId: number): Promise<Account> {
    await this.inTransaction((trx) => this.expirePlanIn(trx, accountId));
    return this.accounts.byIdOrThrow(accountId);
  }

  /**
   * A plan whose end date has passed becomes `expired` for real (the guest allowance), so every answer — licence,
   * transform (10012), point check — agrees. Returns the account as it is now.
   */
  async settleExpiry(a: Account, now = Date.now()): Promise<Account> {
    if (a.kind !== 'user' || a.is_expired === 1 || a.plan_expires_at === null || a.plan_expires_at > now) return a;
    await this.inTransaction((trx) => this.expirePlanIn(trx, a.id, now));
    return this.accounts.byIdOrThrow(a.id);
  }

  /** Every account whose plan end has passed (operator command `expire-due`). */
  async expireDue(now = Date.now()): Promise<number> {
    let n = 0;
    for (const id of await this.accounts.duePlanIds(now))
      if (await this.inTransaction((trx) => this.expirePlanIn(trx, id, now))) n++;
    return n;
  }
}
