/**
 * Database access for the credits ledger (credit_ledger, keyed once per (ref, kind)) and the running
 * totals on the account row. Portable across SQLite and PostgreSQL.
 */
import { sql, type Kysely } from 'kysely';
import type { CreditCost, CreditPool } from '../../src/shared/domain/credits.js';
import type { CreditLedgerTable, Database } from './schema.js';

type Db = Kysely<Database>;
type Kind = CreditLedgerTable['kind'];

/** Each credit pool's columns on the account row: what it has used and what it may use. */
const POOL_COLUMNS = {
  plan: { used: 'used_num', max: 'max_num' },
  compress: { used: 'compress_used', max: 'compress_max' },
} as const satisfies Record<CreditPool, { used: string; max: string }>;

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
 * Takes a work's price from its pool unless the pool cannot pay it: false then. The guard in WHERE keeps the
 * balance from going negative under concurrency (row lock on PG, serialised writers on SQLite).
 */
export async function spend(db: Db, accountId: number, cost: CreditCost, now: number): Promise<boolean> {
  const { used, max } = POOL_COLUMNS[cost.pool];
  const updated = await db
    .updateTable('accounts')
    .set({ [used]: sql`${sql.ref(used)} + ${cost.amount}`, updated_at: now })
    .where('id', '=', accountId)
    .where(sql<boolean>`${sql.ref(used)} + ${cost.amount} <= ${sql.ref(max)}`)
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

/** Gives `amount` back to the pool's used counter (never below 0). */
export async function giveBack(
  db: Db,
  accountId: number,
  pool: CreditPool,
  amount: number,
  now: number,
): Promise<void> {
  const col = POOL_COLUMNS[pool].used;
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
