/**
 * This server's measured engine rates (engine_rates, migration 016): seconds per input MP per rate key,
 * a moving average (src/shared/domain/estimate.ts learnRate). Portable across SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';
import { learnRate, SEED_S_PER_MP, type Rates } from '../../src/shared/domain/estimate.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

export async function allRates(db: Db): Promise<Rates> {
  const rows = await db.selectFrom('engine_rates').select(['rate_key', 's_per_mp']).execute();
  return Object.fromEntries(rows.map((r) => [r.rate_key, Number(r.s_per_mp)]));
}

/**
 * Folds one finished work's measured rate into its key's average (from the seed the first time). Two
 * processes finishing the same engine's works at the same moment may count one of them only: an average
 * of the last few works loses nothing that matters by it.
 */
export async function learnEngineRate(db: Db, key: string, observed: number, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('engine_rates')
      .select(['s_per_mp', 'samples'])
      .where('rate_key', '=', key)
      .executeTakeFirst();
    const rate = learnRate(row ? Number(row.s_per_mp) : SEED_S_PER_MP[key], observed);
    if (row)
      await trx
        .updateTable('engine_rates')
        .set({ s_per_mp: rate, samples: row.samples + 1, updated_at: now })
        .where('rate_key', '=', key)
        .execute();
    else
      await trx
        .insertInto('engine_rates')
        .values({ rate_key: key, s_per_mp: rate, samples: 1, updated_at: now })
        .onConflict((oc) => oc.column('rate_key').doUpdateSet({ s_per_mp: rate, updated_at: now }))
        .execute();
    return rate;
  });
}
