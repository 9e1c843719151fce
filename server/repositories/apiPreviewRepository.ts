/**
 * Free developer-API previews per account and month (migration 013): counted up by one upsert that stops at
 * the month's number, so calls racing for the last free preview never pass it (SQLite and PostgreSQL).
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from './db.js';
import type { Database } from './schema.js';
import { monthKey } from './apiTokenRepository.js';

interface ApiFreePreviewsTable {
  account_id: number;
  /** 'YYYY-MM' (UTC) */
  month_key: string;
  used: number;
}
type PreviewTables = { api_free_previews: ApiFreePreviewsTable };
const withPreviews = (db: Db): Kysely<Database & PreviewTables> => db.withTables<PreviewTables>();

/** Free previews the account used in `now`'s month. */
export async function countFreePreviews(db: Db, accountId: number, now: number): Promise<number> {
  const row = await withPreviews(db)
    .selectFrom('api_free_previews')
    .select('used')
    .where('account_id', '=', accountId)
    .where('month_key', '=', monthKey(now))
    .executeTakeFirst();
  return Number(row?.used ?? 0);
}

/** Takes one of the month's `limit` free previews; false when they are all used. */
export async function takeFreePreview(db: Db, accountId: number, limit: number, now: number): Promise<boolean> {
  if (limit <= 0) return false;
  const r = await withPreviews(db)
    .insertInto('api_free_previews')
    .values({ account_id: accountId, month_key: monthKey(now), used: 1 })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'month_key'])
        .doUpdateSet({ used: sql<number>`api_free_previews.used + 1` })
        .where('api_free_previews.used', '<', limit),
    )
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Gives back a free preview taken for a call that was then refused (nothing processed). */
export async function releaseFreePreview(db: Db, accountId: number, now: number): Promise<void> {
  await withPreviews(db)
    .updateTable('api_free_previews')
    .set({ used: sql<number>`used - 1` })
    .where('account_id', '=', accountId)
    .where('month_key', '=', monthKey(now))
    .where('used', '>', 0)
    .execute();
}
