/**
 * Database access for the credits ledger (credit_ledger, keyed once per (ref, kind)) and the running
 * totals on the account row. Portable across SQLite and PostgreSQL.
 */
import { sql, type Kysely } from 'kysely';
import type { CreditLedgerTable, Database } from './schema.js';

type Db = Kysely<Database>;
type Kind = CreditLedgerTable['kind'];

/** One ledger row; false when (ref, kind) was already written (nothing happens twice). */
export async function recordOnce(
  db: Db,
  accountId: number,
  ref: string,
  kind: Kind,
  amount: number,
  now: number,
): Promise<boolean> {
  const inserted = await db
    .insertInto('credit_ledger')
    .values({ account_id: accountId, ref, kind, amount, created_at: now })
    .onConflict((oc) => oc.columns(['ref', 'kind']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Uses one credit (compress or not) unless none is left: false then. The guard in WHERE keeps the
 * balance from going negative under concurrency (row lock on PG, serialised writers on SQLite).
 */
export async function useOne(db: Db, accountId: number, compress: boolean, now: number): Promise<boolean> {
  const updated = compress
    ? await db
        .updateTable('accounts')
        .set({ compress_used: sql`compress_used + 1`, updated_at: now })
        .where('id', '=', accountId)
        .whereRef('compress_used', '<', 'compress_max')
        .executeTakeFirst()
    : await db
        .updateTable('accounts')
        .set({ used_num: sql`used_num + 1`, updated_at: now })
        .where('id', '=', accountId)
        .whereRef('used_num', '<', 'max_num')
        .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** The charge of a work, if any. */
export async function findCharge(
  db: Db,
  transId: string,
): Promise<{ account_id: number; kind: Kind; amount: number } | undefined> {
  return db
    .selectFrom('credit_ledger')
    .select(['account_id', 'kind', 'amount'])
    .where('ref', '=', transId)
    .where('kind', 'in', ['charge', 'compress_charge'])
    .executeTakeFirst();
}

/** Gives `amount` back to the used counter (never below 0). */
export async function giveBack(
  db: Db,
  accountId: number,
  compress: boolean,
  amount: number,
  now: number,
): Promise<void> {
  const col = compress ? 'compress_used' : 'used_num';
  await db
    .updateTable('accounts')
    .set({
      [col]: sql`CASE WHEN ${sql.ref(col)} >= ${amount} THEN ${sql.ref(col)} - ${amount} ELSE 0 END`,
      updated_at: now,
    })
    .where('id', '=', accountId)
    .execute();
}

export async function addCredits(db: Db, accountId: number, amount: number, now: number): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ max_num: sql`max_num + ${amount}`, updated_at: now })
    .where('id', '=', accountId)
    .execute();
}

export async function balanceOf(db: Db, accountId: number) {
  return db
    .selectFrom('accounts')
    .select(['max_num', 'used_num', 'compress_max', 'compress_used'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
}
