/** Database access for bulk-download bundles (point check → download/all/?download_all_id). */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** Stores a bundle; this account's bundles made before `expiredBefore` go at the same time, so the table stays small. */
export async function insertBundle(
  db: Db,
  id: string,
  accountId: number,
  transIds: readonly string[],
  now: number,
  expiredBefore: number,
): Promise<void> {
  await db
    .deleteFrom('download_bundles')
    .where('account_id', '=', accountId)
    .where('created_at', '<=', expiredBefore)
    .execute();
  await db
    .insertInto('download_bundles')
    .values({ id, account_id: accountId, trans_ids_json: JSON.stringify(transIds), created_at: now })
    .execute();
}

/** The trans_ids of a bundle of this account made after `since`. */
export async function findBundle(db: Db, id: string, accountId: number, since: number): Promise<string[] | undefined> {
  const row = await db
    .selectFrom('download_bundles')
    .select('trans_ids_json')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return row ? (JSON.parse(row.trans_ids_json) as string[]) : undefined;
}
