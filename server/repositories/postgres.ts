/** PostgreSQL dialect for the scale-out mode (DATABASE_URL=postgres://…). */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

// bigint columns hold epoch milliseconds, well inside Number's safe range.
pg.types.setTypeParser(20, (v) => Number(v));
// real (float4) → number
pg.types.setTypeParser(700, (v) => Number(v));

export async function openPostgres(url: string): Promise<Kysely<Database>> {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.PG_POOL_MAX ?? 10) });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
