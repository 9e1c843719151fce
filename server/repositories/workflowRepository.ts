/** Database access for saved workflows; every query is scoped to one account. Portable across SQLite and PostgreSQL. */
import type { Kysely } from 'kysely';
import type { Database, Workflow } from './schema.js';

type Db = Kysely<Database>;

export async function countOf(db: Db, accountId: number): Promise<number> {
  const { n } = await db
    .selectFrom('workflows')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** A page of an account's workflows, newest first. */
export async function pageOf(db: Db, accountId: number, limit: number, offset: number): Promise<Workflow[]> {
  return db
    .selectFrom('workflows')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function insertWorkflow(
  db: Db,
  accountId: number,
  name: string,
  flowsJson: string,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('workflows')
    .values({ account_id: accountId, name, flows_json: flowsJson, active: 0, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateWorkflow(
  db: Db,
  accountId: number,
  id: number,
  name: string,
  flowsJson: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('workflows')
    .set({ name, flows_json: flowsJson, updated_at: now })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .execute();
}

export async function deleteWorkflows(db: Db, accountId: number, ids: readonly number[]): Promise<number> {
  const r = await db
    .deleteFrom('workflows')
    .where('id', 'in', ids)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Exactly `ids` become the account's active workflows, in one transaction. */
export async function setActive(db: Db, accountId: number, ids: readonly number[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('workflows').set({ active: 0 }).where('account_id', '=', accountId).execute();
    if (ids.length)
      await trx
        .updateTable('workflows')
        .set({ active: 1 })
        .where('account_id', '=', accountId)
        .where('id', 'in', ids)
        .execute();
  });
}

export async function activeOf(db: Db, accountId: number): Promise<Workflow[]> {
  return db
    .selectFrom('workflows')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('active', '=', 1)
    .orderBy('id', 'desc')
    .execute();
}

export async function ownedIn(db: Db, accountId: number, ids: readonly number[]): Promise<Workflow[]> {
  return db.selectFrom('workflows').selectAll().where('account_id', '=', accountId).where('id', 'in', ids).execute();
}
