import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, detectScaleout } from '../../../tests/support/modes.js';
import { MIGRATIONS } from '../db.js';
import * as m010 from './010_pack_credits.js';

const pg = await detectScaleout();
const BEFORE = Object.entries(MIGRATIONS).filter(([name]) => name < '010');

/**
 * Accounts as migration 010 finds them; `want` is the pack credits each must get: the packs granted
 * since its last plan change (earlier ones went with that change), capped at the credits left.
 */
const CASES = [
  { email: 'free@example.com', max: 503, used: 1, packs: [[100, 500]], plans: [], want: 500 },
  {
    email: 'two-packs@example.com',
    max: 2503,
    used: 0,
    packs: [
      [100, 500],
      [150, 2000],
    ],
    plans: [],
    want: 2500,
  },
  { email: 'lost@example.com', max: 500, used: 0, packs: [[100, 500]], plans: [[200, 'plan:pro:x']], want: 0 },
  {
    email: 'after-pro@example.com',
    max: 1000,
    used: 700,
    packs: [[300, 500]],
    plans: [
      [200, 'plan:pro:y'],
      [100, 'expire:z'],
    ],
    want: 300,
  },
  {
    email: 'after-expiry@example.com',
    max: 510,
    used: 7,
    packs: [
      [50, 500],
      [300, 500],
    ],
    plans: [[200, 'expire:w']],
    want: 500,
  },
  { email: 'overdrawn@example.com', max: 500, used: 520, packs: [[100, 500]], plans: [], want: 0 },
  { email: 'no-pack@example.com', max: 500, used: 0, packs: [], plans: [[100, 'plan:pro:v']], want: 0 },
] as const;

async function check(db: Kysely<any>) {
  for (const [, m] of BEFORE) await m.up(db);
  for (const c of CASES) {
    const id = (
      await db
        .insertInto('accounts')
        .values({ kind: 'user', email: c.email, max_num: c.max, used_num: c.used, created_at: 1, updated_at: 1 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id as number;
    for (const [at, credits] of c.packs) {
      await db
        .insertInto('api_credit_grants')
        .values({ ref: `${c.email}:${at}`, account_id: id, api_plan: 'api_500', credits, created_at: at })
        .execute();
      await db
        .insertInto('credit_ledger')
        .values({ account_id: id, ref: `api:${c.email}:${at}`, kind: 'grant', amount: credits, created_at: at })
        .execute();
    }
    for (const [at, ref] of c.plans) {
      await db
        .insertInto('credit_ledger')
        .values({ account_id: id, ref, kind: ref.startsWith('plan:') ? 'grant' : 'expire', amount: 1, created_at: at })
        .execute();
    }
  }
  await m010.up(db);
  const rows = await db
    .selectFrom('accounts')
    .select(['email', 'pack_credits', 'max_num', 'used_num'])
    .orderBy('id')
    .execute();
  expect(rows.map((r) => [r.email, Number(r.pack_credits)])).toEqual(CASES.map((c) => [c.email, c.want]));
  // the balance itself is not touched
  expect(rows.map((r) => [Number(r.max_num), Number(r.used_num)])).toEqual(CASES.map((c) => [c.max, c.used]));
  await m010.down(db);
}

describe('migration 010_pack_credits', () => {
  it('SQLite: counts the packs granted since the last plan change, capped at the credits left', async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    try {
      await check(db);
    } finally {
      await db.destroy();
    }
  });

  it.skipIf(!pg.available)('PostgreSQL: the same', async () => {
    const pgDb = await createTestDatabase(pg.pgUrl);
    const { openPostgres } = await import('../postgres.js');
    const db = (await openPostgres(pgDb.url)) as unknown as Kysely<any>;
    try {
      await check(db);
    } finally {
      await db.destroy();
      await pgDb.drop();
    }
  });
});
