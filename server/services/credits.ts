/**
 * Credits ledger (spec §4, §6): the server is the truth for credits. Every charge and refund is a
 * row in credit_ledger keyed by (ref = trans_id, kind); the unique index makes each happen once,
 * whatever retries or concurrent starts occur. The account row holds the running totals
 * (max_num/used_num, compress_max/compress_used) that the license answer reports.
 */
import { sql, type Kysely } from 'kysely';
import { CODE } from '../../src/domain/codes.js';
import { creditsLeft } from '../../src/domain/plans.js';
import { ApiError } from '../errors.js';
import type { Database } from '../repositories/schema.js';
import type { Deps } from './index.js';

export type DbLike = Kysely<Database>;

export interface ChargeOptions {
  /** compress jobs draw on the compress credits (compress_max − compress_used) */
  compress: boolean;
}

export interface Balance {
  max_num: number;
  used_num: number;
  left: number;
  compress_max: number;
  compress_used: number;
  compress_left: number;
}

export const insufficientCredits = () => new ApiError(CODE.INSUFFICIENT_CREDITS, 'Insufficient Credits');

export class CreditService {
  constructor(private readonly deps: Deps) {}

  /**
   * Takes one credit for a work. Runs in `trx` when given (so the caller's job insert commits or
   * rolls back with it), otherwise in its own transaction. Returns false when this trans_id was
   * already charged (nothing taken twice); throws 10012 when no credit is left.
   */
  async charge(accountId: number, transId: string, opts: ChargeOptions, trx?: DbLike): Promise<boolean> {
    if (!trx) return this.deps.db.transaction().execute((t) => this.charge(accountId, transId, opts, t));
    const kind = opts.compress ? 'compress_charge' : 'charge';
    const inserted = await trx
      .insertInto('credit_ledger')
      .values({ account_id: accountId, ref: transId, kind, amount: 1, created_at: Date.now() })
      .onConflict((oc) => oc.columns(['ref', 'kind']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    // The guard in WHERE keeps the balance from going negative under concurrency (row lock on PG,
    // serialised writers on SQLite).
    const updated = opts.compress
      ? await trx
          .updateTable('accounts')
          .set({ compress_used: sql`compress_used + 1`, updated_at: Date.now() })
          .where('id', '=', accountId)
          .whereRef('compress_used', '<', 'compress_max')
          .executeTakeFirst()
      : await trx
          .updateTable('accounts')
          .set({ used_num: sql`used_num + 1`, updated_at: Date.now() })
          .where('id', '=', accountId)
          .whereRef('used_num', '<', 'max_num')
          .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw insufficientCredits();
    return true;
  }

  /** Gives back the credit of a failed work, once. Returns false when there was nothing to refund. */
  async refund(transId: string, within?: DbLike): Promise<boolean> {
    // `within`: the caller's transaction, so marking a work failed and refunding it are one write.
    const body = async (trx: DbLike) => {
      const charge = await trx
        .selectFrom('credit_ledger')
        .select(['account_id', 'kind', 'amount'])
        .where('ref', '=', transId)
        .where('kind', 'in', ['charge', 'compress_charge'])
        .executeTakeFirst();
      if (!charge) return false;
      const compress = charge.kind === 'compress_charge';
      const inserted = await trx
        .insertInto('credit_ledger')
        .values({ account_id: charge.account_id, ref: transId, kind: compress ? 'compress_refund' : 'refund', amount: charge.amount, created_at: Date.now() })
        .onConflict((oc) => oc.columns(['ref', 'kind']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      const col = compress ? 'compress_used' : 'used_num';
      await trx
        .updateTable('accounts')
        .set({ [col]: sql`CASE WHEN ${sql.ref(col)} >= ${charge.amount} THEN ${sql.ref(col)} - ${charge.amount} ELSE 0 END`, updated_at: Date.now() })
        .where('id', '=', charge.account_id)
        .execute();
      return true;
    };
    return within ? body(within) : this.deps.db.transaction().execute(body);
  }

  /** Adds credits to an account (operator top-up, plan purchase); `ref` makes it happen once. */
  async grant(accountId: number, amount: number, ref: string): Promise<boolean> {
    if (!Number.isInteger(amount) || amount <= 0) throw new Error('grant amount must be a positive integer');
    return this.deps.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('credit_ledger')
        .values({ account_id: accountId, ref, kind: 'grant', amount, created_at: Date.now() })
        .onConflict((oc) => oc.columns(['ref', 'kind']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      await trx
        .updateTable('accounts')
        .set({ max_num: sql`max_num + ${amount}`, updated_at: Date.now() })
        .where('id', '=', accountId)
        .execute();
      return true;
    });
  }

  async balance(accountId: number): Promise<Balance> {
    const a = await this.deps.db
      .selectFrom('accounts')
      .select(['max_num', 'used_num', 'compress_max', 'compress_used'])
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    return {
      ...a,
      left: creditsLeft(a.max_num, a.used_num),
      compress_left: creditsLeft(a.compress_max, a.compress_used),
    };
  }
}
