/** Product and analytics events (table events). */
import type { Db } from './db.js';

export class EventRepository {
  constructor(private readonly db: Db) {}

  async insert(kind: string, accountId: number | null, payloadJson: string, now: number): Promise<number> {
    return (
      await this.db
        .insertInto('events')
        .values({ account_id: accountId, kind, payload_json: payloadJson, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  /** Deletes events recorded before `before` (at most `batch` rows a call); returns how many went. */
  async pruneOlderThan(before: number, batch = 5000): Promise<number> {
    const old = this.db.selectFrom('events').select('id').where('created_at', '<', before).orderBy('id').limit(batch);
    const r = await this.db.deleteFrom('events').where('id', 'in', old).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  recent(accountId: number | null, kind: string | undefined, limit: number) {
    let q = this.db.selectFrom('events').selectAll();
    q = accountId === null ? q.where('account_id', 'is', null) : q.where('account_id', '=', accountId);
    if (kind) q = q.where('kind', '=', kind);
    return q.orderBy('id', 'desc').limit(limit).execute();
  }
}
