/** Opens the database chosen by configuration and brings its schema up to date. */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from './schema.js';
import * as m001 from './migrations/001_initial.js';
import * as m002 from './migrations/002_account_extras.js';
import * as m003 from './migrations/003_job_lease.js';
import * as m004 from './migrations/004_payments.js';
import * as m005a from './migrations/005_accounts_security.js';
import * as m005u from './migrations/005_uploads_quota.js';
import * as m006c from './migrations/006_contact_messages.js';

/** Every migration, in order. Add new ones here; never edit a released one. */
const MIGRATIONS: Record<string, Migration> = {
  '001_initial': m001,
  '002_account_extras': m002,
  '003_job_lease': m003,
  '004_payments': m004,
  '005_accounts_security': m005a,
  '005_uploads_quota': m005u,
  '006_contact_messages': m006c,
};

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
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
  }
  const { error, results } = await new Migrator({ db, provider: new StaticProvider() }).migrateToLatest();
  if (error) {
    await db.destroy();
    throw new Error(`database migration failed: ${results?.find((r) => r.status === 'Error')?.migrationName ?? ''} ${String(error)}`);
  }
  return db;
}
