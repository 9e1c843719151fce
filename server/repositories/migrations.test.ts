import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql, type Migration } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, detectScaleout, type TestDatabase } from '../../tests/support/modes.js';
import { MIGRATIONS, openDatabase, RENAMED } from './db.js';

const dir = path.join(import.meta.dirname, 'migrations');

describe('migration list', () => {
  it('names every migration file, numbered 001, 002, … with no number twice', () => {
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => f.slice(0, -3))
      .sort();
    expect(Object.keys(MIGRATIONS).sort()).toEqual(files);
    const numbers = Object.keys(MIGRATIONS).map((name) => Number(/^(\d{3})_[a-z0-9_]+$/.exec(name)?.[1]));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  it('renames only to migrations that exist, never onto an old name', () => {
    for (const [from, to] of Object.entries(RENAMED)) {
      expect(MIGRATIONS[to]).toBeDefined();
      expect(MIGRATIONS[from]).toBeUndefined();
    }
  });
});

/** The list as it was before the renumbering: the same migrations under the names then recorded. */
const OLD_NAMES: Record<string, Migration> = Object.fromEntries(
  Object.entries(MIGRATIONS).map(([name, m]) => [
    Object.entries(RENAMED).find(([, to]) => to === name)?.[0] ?? name,
    m,
  ]),
);

const recorded = async (db: Kysely<unknown>) =>
  (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name);

// the PostgreSQL case is skipped where PostgreSQL does not answer (the scale-out pass needs it too)
const pg = await detectScaleout();

describe('a database migrated under the old names', () => {
  const tmp: string[] = [];
  let pgDb: TestDatabase | undefined;
  afterAll(async () => {
    for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
    await pgDb?.drop();
  });

  async function check(db: Kysely<unknown>, reopen: () => Promise<Kysely<unknown>>) {
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => OLD_NAMES } }).migrateToLatest();
    expect(error).toBeUndefined();
    expect(await recorded(db)).toContain('005_uploads_quota');
    await sql`insert into contact_messages (name, email, message, locale, created_at) values ('a', 'a@example.com', 'kept', 'en', 1)`.execute(
      db,
    );
    await db.destroy();

    const opened = await reopen();
    try {
      expect(await recorded(opened)).toEqual(Object.keys(MIGRATIONS).sort());
      const rows = await sql<{ message: string }>`select message from contact_messages`.execute(opened);
      expect(rows.rows.map((r) => r.message)).toEqual(['kept']);
    } finally {
      await opened.destroy();
    }
    // and a second open finds nothing left to rename or apply
    const again = await reopen();
    expect(await recorded(again)).toEqual(Object.keys(MIGRATIONS).sort());
    await again.destroy();
  }

  it('SQLite: opens with its migrations recorded under the new names and its data kept', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-migrations-'));
    tmp.push(dataDir);
    const config = { dataDir, databaseUrl: '' };
    // the file openDatabase opens, first migrated by a bare migrator under the old names
    const file = new SQLite(path.join(dataDir, 'pixmill.sqlite'));
    await check(
      new Kysely<unknown>({ dialect: new SqliteDialect({ database: file }) }),
      () => openDatabase(config) as Promise<Kysely<unknown>>,
    );
  });

  it.skipIf(!pg.available)('PostgreSQL: the same', async () => {
    pgDb = await createTestDatabase(pg.pgUrl);
    const { openPostgres } = await import('./postgres.js');
    await check(
      (await openPostgres(pgDb.url)) as Kysely<unknown>,
      () => openDatabase({ dataDir: '', databaseUrl: pgDb!.url }) as Promise<Kysely<unknown>>,
    );
  });
});
