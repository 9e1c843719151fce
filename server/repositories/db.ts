/** Opens the database chosen by configuration and brings its schema up to date. */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  SqliteDialect,
  sql,
  type Migration,
  type MigrationProvider,
  type SqliteDatabase,
} from 'kysely';
import type { Config } from '../config.js';
import type { Database } from './schema.js';
import * as m001 from './migrations/001_initial.js';
import * as m002 from './migrations/002_account_extras.js';
import * as m003 from './migrations/003_job_lease.js';
import * as m004 from './migrations/004_payments.js';
import * as m005 from './migrations/005_accounts_security.js';
import * as m006 from './migrations/006_uploads_quota.js';
import * as m007 from './migrations/007_contact_messages.js';
import * as m008 from './migrations/008_events_retention.js';
import * as m009 from './migrations/009_api_tokens.js';
import * as m010 from './migrations/010_pack_credits.js';
import * as m011 from './migrations/011_api_token_reset.js';
import * as m012 from './migrations/012_queue_order.js';
import * as m013 from './migrations/013_api_previews_webhooks.js';
import * as m014 from './migrations/014_address_budgets.js';
import * as m015 from './migrations/015_enlarge_path.js';
import * as m016 from './migrations/016_engine_rates.js';

/**
 * Every migration, in order: the name is its file's name, the number unique and one above the last.
 * Add new ones at the end; never edit or rename a released one (a rename needs a RENAMED entry).
 */
export const MIGRATIONS: Record<string, Migration> = {
  '001_initial': m001,
  '002_account_extras': m002,
  '003_job_lease': m003,
  '004_payments': m004,
  '005_accounts_security': m005,
  '006_uploads_quota': m006,
  '007_contact_messages': m007,
  '008_events_retention': m008,
  '009_api_tokens': m009,
  '010_pack_credits': m010,
  '011_api_token_reset': m011,
  '012_queue_order': m012,
  '013_api_previews_webhooks': m013,
  '014_address_budgets': m014,
  '015_enlarge_path': m015,
  '016_engine_rates': m016,
};

/**
 * Migrations renumbered after databases had applied them (old recorded name → name now), when two of
 * them both carried 005. The migrator knows a migration only by its recorded name, so the rows are
 * renamed before it runs. Every old name differs from every new one, so the renames are idempotent
 * and order-free; the relative order of the migrations did not change, so the recorded order still
 * matches the list above.
 */
export const RENAMED: Readonly<Record<string, string>> = {
  '005_uploads_quota': '006_uploads_quota',
  '006_contact_messages': '007_contact_messages',
  '007_events_retention': '008_events_retention',
};

/** The migrator's own table, as Kysely names it by default. */
const MIGRATION_TABLE = 'kysely_migration';

/** Brings recorded migration names up to RENAMED (nothing to do on a new database). */
async function renameRecordedMigrations<DB>(db: Kysely<DB>): Promise<void> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === MIGRATION_TABLE)) return;
  await db.transaction().execute(async (trx) => {
    for (const [from, to] of Object.entries(RENAMED)) {
      await sql`update ${sql.table(MIGRATION_TABLE)} set name = ${to} where name = ${from}`.execute(trx);
    }
  });
}

class StaticProvider implements MigrationProvider {
  async getMigrations() {
    return MIGRATIONS;
  }
}

export type Db = Kysely<Database>;

/** The SQLite file and its -wal/-shm companions: readable by the server's user only (SQLite gives the companions the file's mode). */
function privateFiles(dbPath: string): void {
  for (const p of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) {
    try {
      fs.chmodSync(p, 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
}

/** Prepared statements kept per SQL text; beyond it the least recently used one goes. */
export const SQLITE_STATEMENT_CACHE = 256;

/**
 * better-sqlite3 behind Kysely, with its statements kept: Kysely's SQLite driver prepares every query
 * afresh, so SQLite parsed and planned the same text on every request (progress poll p50 0.67 →
 * 0.57 ms with the cache, `npm run bench api`). A statement is reused for the same text; SQLite
 * re-prepares it by itself after a schema change. Kysely never streams here (no iterate() holding a
 * statement open), so a kept statement is never busy when it is asked for again.
 */
export function withStatementCache(file: SQLite.Database): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => file.close(),
    prepare(sql: string) {
      let stmt = kept.get(sql);
      if (stmt) {
        kept.delete(sql); // most recently used goes to the end
      } else {
        stmt = file.prepare(sql);
        if (kept.size >= SQLITE_STATEMENT_CACHE) kept.delete(kept.keys().next().value!);
      }
      kept.set(sql, stmt);
      return stmt;
    },
  };
}

export async function openDatabase(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<Db> {
  let db: Db;
  if (config.databaseUrl) {
    // PostgreSQL is loaded only when configured, so the embedded mode needs no pg at run time.
    const { openPostgres } = await import('./postgres.js');
    db = await openPostgres(config.databaseUrl);
  } else {
    fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    const dbPath = path.join(config.dataDir, 'pixmill.sqlite');
    const file = new SQLite(dbPath);
    file.pragma('journal_mode = WAL');
    privateFiles(dbPath);
    file.pragma('busy_timeout = 5000');
    file.pragma('foreign_keys = ON');
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
  }
  await renameRecordedMigrations(db);
  const { error, results } = await new Migrator({ db, provider: new StaticProvider() }).migrateToLatest();
  if (error) {
    await db.destroy();
    throw new Error(
      `database migration failed: ${results?.find((r) => r.status === 'Error')?.migrationName ?? ''} ${String(error)}`,
    );
  }
  return db;
}
