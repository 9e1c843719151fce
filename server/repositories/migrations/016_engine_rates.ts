import type { Kysely } from 'kysely';

/**
 * engine_rates: this server's measured seconds per input megapixel per engine (rate_key: the module, and
 * for enlarge its scale; src/shared/domain/estimate.ts), a moving average learned from finished works, so
 * the time estimate tells the truth about this machine (issue 51 point 4). Shared by every process on
 * PostgreSQL; a missing key falls back to the seed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('engine_rates')
    .addColumn('rate_key', 'text', (c) => c.primaryKey())
    .addColumn('s_per_mp', 'double precision', (c) => c.notNull())
    .addColumn('samples', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('engine_rates').execute();
}
