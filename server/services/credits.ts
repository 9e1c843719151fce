/**
 * Credits ledger (spec §4, §6): the server is the truth for credits. Every charge and refund is a
 * row in credit_ledger keyed by (ref = trans_id, kind); the unique index makes each happen once,
 * whatever retries or concurrent starts occur. The account row holds the running totals
 * (max_num/used_num, compress_max/compress_used) that the license answer reports.
 */
import type { Kysely } from 'kysely';
import type { CreditCost, CreditPool } from '../../src/shared/domain/credits.js';
import { creditsLeft } from '../../src/shared/domain/plans.js';
import { paramError } from '../errors.js';
import * as ledger from '../repositories/creditRepository.js';
import type { Database } from '../repositories/schema.js';
import type { ServiceBase } from './base.js';

export type DbLike = Kysely<Database>;

/** What a charge did: the credits it took (0 when this trans_id was already charged) and what its pool has left. */
export interface Charge {
  charged: number;
  left: number;
}

export interface Balance {
  max_num: number;
  used_num: number;
  left: number;
  compress_max: number;
  compress_used: number;
  compress_left: number;
}

const insufficientCredits = () => paramError('insufficientCredits');

export class CreditService {
  constructor(private readonly deps: ServiceBase) {}

  /**
   * Takes a work's price (creditCost, src/shared/domain/credits.ts) from its pool. Runs in `trx` when given (so
   * the caller's job insert commits or rolls back with it), otherwise in its own transaction. Charges nothing when
   * this trans_id was already charged (nothing taken twice); throws 10012 when the pool cannot pay.
   */
  async charge(accountId: number, transId: string, cost: CreditCost, trx?: DbLike): Promise<Charge> {
    if (!trx) return this.deps.db.transaction().execute((t) => this.charge(accountId, transId, cost, t));
    const now = Date.now();
    const kind = cost.pool === 'compress' ? 'compress_charge' : 'charge';
    const fresh = await ledger.recordOnce(trx, accountId, transId, kind, cost.amount, now);
    if (fresh && !(await ledger.spend(trx, accountId, cost, now))) throw insufficientCredits();
    return { charged: fresh ? cost.amount : 0, left: leftIn(await this.balance(accountId, trx), cost.pool) };
  }

  /** Gives back the credit of a failed work, once. Returns false when there was nothing to refund. */
  async refund(transId: string, within?: DbLike): Promise<boolean> {
    // `within`: the caller's transaction, so marking a work failed and refunding it are one write.
    const body = async (trx: DbLike) => {
      const charge = await ledger.findCharge(trx, transId);
      if (!charge) return false;
      const pool: CreditPool = charge.kind === 'compress_charge' ? 'compress' : 'plan';
      const now = Date.now();
      if (
        !(await ledger.recordOnce(
          trx,
          charge.account_id,
          transId,
          pool === 'compress' ? 'compress_refund' : 'refund',
          charge.amount,
          now,
        ))
      )
        return false;
      await ledger.giveBack(trx, charge.account_id, pool, charge.amount, now);
      return true;
    };
    return within ? body(within) : this.deps.db.transaction().execute(body);
  }

  /** Adds credits to an account (operator top-up, plan purchase); `ref` makes it happen once. */
  async grant(accountId: number, amount: number, ref: string): Promise<boolean> {
    if (!Number.isInteger(amount) || amount <= 0) throw new Error('grant amount must be a positive integer');
    return this.deps.db.transaction().execute(async (trx) => {
      const now = Date.now();
      if (!(await ledger.recordOnce(trx, accountId, ref, 'grant', amount, now))) return false;
      await ledger.addCredits(trx, accountId, amount, now);
      return true;
    });
  }

  /** The account's credits; read in `within` when given (a charge's own transaction sees its own write). */
  async balance(accountId: number, within?: DbLike): Promise<Balance> {
    const a = await ledger.balanceOf(within ?? this.deps.db, accountId);
    return {
      ...a,
      left: creditsLeft(a.max_num, a.used_num),
      compress_left: creditsLeft(a.compress_max, a.compress_used),
    };
  }
}

/** The credits a pool has left in a balance. */
export function leftIn(balance: Balance, pool: CreditPool): number {
  return pool === 'compress' ? balance.compress_left : balance.left;
}
