/** Bytes uploaded without an account per address group and window (migration 014), portable across SQLite and PostgreSQL. */
import { sql } from 'kysely';
import type { Db } from './db.js';

/**
 * Adds `bytes` to the group's count for the window starting at `windowStart` unless that would pass
 * `limit`; true when added. One statement (an upsert whose update is conditional), so parallel uploads
 * from one address cannot all pass the limit. Windows before the previous one are dropped when a new one opens.
 */
export async function spendAddressBytes(
  db: Db,
  clientKey: string,
  windowStart: number,
  windowMs: number,
  bytes: number,
  limit: number,
): Promise<boolean> {
  if (bytes > limit) return false;
  const row = await db
    .insertInto('address_budgets')
    .values({ client_key: clientKey, window_start: windowStart, bytes })
    .onConflict((oc) =>
      oc
        .columns(['client_key', 'window_start'])
        .doUpdateSet({ bytes: sql`address_budgets.bytes + ${bytes}` })
        .where(sql<boolean>`address_budgets.bytes + ${bytes} <= ${limit}`),
    )
    .returning('bytes')
    .executeTakeFirst();
  // a row that holds only these bytes opened a new window: the windows before the last one go
  if (row && Number(row.bytes) === bytes)
    await db
      .deleteFrom('address_budgets')
      .where('window_start', '<', windowStart - windowMs)
      .execute();
  return row !== undefined;
}
