/** Per-account promotion records (table promotions, one row per account, kind and key). */
import type { Db } from './db.js';

export class PromotionRepository {
  constructor(private readonly db: Db) {}

  /** Inserts unless (account, kind, key) exists; true when this call inserted. */
  async insertOnce(accountId: number, kind: string, key: string, value: string, now: number): Promise<boolean> {
    const r = await this.db
      .insertInto('promotions')
      .values({ account_id: accountId, kind, key, value, created_at: now })
      .onConflict((oc) => oc.columns(['account_id', 'kind', 'key']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async value(accountId: number, kind: string): Promise<string | undefined> {
    return (
      await this.db
        .selectFrom('promotions')
        .select('value')
        .where('account_id', '=', accountId)
        .where('kind', '=', kind)
        .executeTakeFirst()
    )?.value;
  }

  /** The account holding a kind/value pair (a share code's owner). */
  async ownerOf(kind: string, value: string): Promise<number | undefined> {
    return (
      await this.db
        .selectFrom('promotions')
        .select('account_id')
        .where('kind', '=', kind)
        .where('value', '=', value)
        .executeTakeFirst()
    )?.account_id;
  }

  async count(accountId: number, kind: string): Promise<number> {
    const { n } = await this.db
      .selectFrom('promotions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow();
    return Number(n);
  }
}
