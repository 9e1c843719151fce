/**
 * The accounts table and what hangs off one account for the account services: plan totals, their
 * ledger rows, survey and profile fields, mail opt-outs. Pass a transaction as `db` to join one.
 */
import { sql } from 'kysely';
import type { Db } from './db.js';
import type { Account, AccountUpdate, NewAccount } from './schema.js';

export class AccountRepository {
  constructor(private readonly db: Db) {}

  byId(id: number): Promise<Account | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  byIdOrThrow(id: number): Promise<Account> {
    return this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  /** `email` must already be normalised. */
  async byEmail(email: string): Promise<Account | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
  }

  async insert(values: NewAccount): Promise<number> {
    return (await this.db.insertInto('accounts').values(values).returning('id').executeTakeFirstOrThrow()).id;
  }

  async update(id: number, set: AccountUpdate): Promise<void> {
    await this.db.updateTable('accounts').set(set).where('id', '=', id).execute();
  }

  /**
   * Takes the account row's lock for the rest of the transaction (a write: PostgreSQL holds its row
   * lock until commit; SQLite runs one writer at a time), so a plan change reads totals that no
   * concurrent charge or grant can move before it writes.
   */
  async lock(id: number, now: number): Promise<void> {
    await this.db.updateTable('accounts').set({ updated_at: now }).where('id', '=', id).execute();
  }

  /** An API pack's credits: onto the balance, and counted as pack credits that plan changes keep. */
  async addPackCredits(id: number, amount: number, now: number): Promise<void> {
    await this.db
      .updateTable('accounts')
      .set({
        max_num: sql<number>`max_num + ${amount}`,
        pack_credits: sql<number>`pack_credits + ${amount}`,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Level `expired`: credits left 0, compress credits capped at `compressCap`; only when not expired
   * yet. Returns whether this call did it (a concurrent second call finds nothing to change).
   */
  async markExpired(id: number, planEnd: number, compressCap: number, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('accounts')
      .set({
        is_expired: 1,
        plan_expires_at: planEnd,
        max_num: sql<number>`used_num`,
        compress_max: sql<number>`compress_used + CASE WHEN compress_max - compress_used < ${compressCap} THEN (CASE WHEN compress_max > compress_used THEN compress_max - compress_used ELSE 0 END) ELSE ${compressCap} END`,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('is_expired', '=', 0)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async duePlanIds(now: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('kind', '=', 'user')
      .where('is_expired', '=', 0)
      .where('plan_expires_at', '<=', now)
      .execute();
    return rows.map((r) => r.id);
  }

  async ledger(accountId: number, ref: string, kind: 'grant' | 'expire', amount: number, now: number): Promise<void> {
    await this.db
      .insertInto('credit_ledger')
      .values({ account_id: accountId, ref, kind, amount, created_at: now })
      .execute();
  }

  async optOut(email: string, now: number): Promise<void> {
    await this.db
      .insertInto('mail_optouts')
      .values({ email, created_at: now })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
  }

  async isOptedOut(email: string): Promise<boolean> {
    return !!(await this.db.selectFrom('mail_optouts').select('email').where('email', '=', email).executeTakeFirst());
  }
}
