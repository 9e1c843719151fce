/** PostgreSQL dialect for the scale-out mode (DATABASE_URL=postgres://…). */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { pgPoolSettings, type PgPoolSettings } from '../config.js';
import type { Database } from './schema.js';

// bigint columns hold epoch milliseconds, well inside Number's safe range.
pg.types.setTypeParser(20, (v) => Number(v));
// real (float4) → number
pg.types.setTypeParser(700, (v) => Number(v));

/** Pool options that keep a process serving (with 503s) while the database is away, and recover after. */
function poolOptions(url: string, s: PgPoolSettings = pgPoolSettings()): pg.PoolConfig {
  return {
    connectionString: url,
    max: s.max,
    // Without a limit a request waits forever for a connection while the database is unreachable.
    connectionTimeoutMillis: s.connectTimeoutMs,
    idleTimeoutMillis: s.idleTimeoutMs,
    // A statement stuck behind a dead connection must end so the request can answer 503.
    query_timeout: s.queryTimeoutMs,
    keepAlive: true,
  };
}

/**
 * A statement whose SQL starts with this comment runs as a named prepared statement: PostgreSQL
 * parses and plans it once per connection instead of on every call. For the few statements run on
 * every request (the token read); the SQL text of one name never changes.
 */
export const PREPARED_MARK = (name: string) => `/* prepared:${name} */ `;
const PREPARED = /^\/\* prepared:([a-z_]+) \*\/ /;

/** client.query(text, values) → the prepared form when the text carries PREPARED_MARK. */
function prepareMarked(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const [text, values] = args;
    const name = typeof text === 'string' ? PREPARED.exec(text)?.[1] : undefined;
    return name && args.length <= 2 ? query({ name, text, values }) : query(...args);
  };
}

export async function openPostgres(url: string): Promise<Kysely<Database>> {
  const pool = new pg.Pool(poolOptions(url));
  // An idle client losing its connection emits 'error' on the pool; unhandled, it would end the process.
  pool.on('error', (err) => {
    process.emitWarning(`postgres idle client error: ${err.message}`, { code: 'PIXMILL_PG_IDLE' });
  });
  // A connection lost while checked out (mid-query) emits 'error' too; the query itself already
  // rejects with it (→ 503), so this listener only keeps the process alive.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    prepareMarked(client);
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
