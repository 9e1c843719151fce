import { createHash } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as m001 from './001_initial.js';
import * as m002 from './002_account_extras.js';
import * as m003 from './003_job_lease.js';
import * as m004 from './004_payments.js';
import * as m005 from './005_accounts_security.js';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

describe('migration 005_accounts_security', () => {
  it('hashes existing tokens and session ids in place and gives tokens an expiry by kind', async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    for (const m of [m001, m002, m003, m004]) await m.up(db);
    const t0 = Date.now();
    await db
      .insertInto('accounts')
      .values([
        { kind: 'guest', created_at: t0, updated_at: t0 },
        { kind: 'user', email: 'old@example.com', created_at: t0, updated_at: t0 },
      ])
      .execute();
    await db
      .insertInto('tokens')
      .values([
        {
          token: 'g_plainGuestTokenPlainGuestToken',
          kind: 'guest',
          account_id: 1,
          bound_account_id: null,
          created_at: t0,
        },
        {
          token: 'u_plainUserTokenPlainUserToken00',
          kind: 'user',
          account_id: 2,
          bound_account_id: null,
          created_at: t0,
        },
      ])
      .execute();
    await db
      .insertInto('sessions')
      .values({ id: 'plain-session-id', account_id: 2, created_at: t0, expires_at: t0 + 1000 })
      .execute();
    await m005.up(db);
    const tokens = await db.selectFrom('tokens').selectAll().orderBy('kind').execute();
    expect(tokens.map((t) => t.token_hash)).toEqual([
      sha256('g_plainGuestTokenPlainGuestToken'),
      sha256('u_plainUserTokenPlainUserToken00'),
    ]);
    const day = 86_400_000;
    expect(tokens[0].expires_at).toBeGreaterThanOrEqual(t0 + 365 * day);
    expect(tokens[1].expires_at).toBeGreaterThanOrEqual(t0 + 30 * day);
    expect(tokens[1].expires_at).toBeLessThan(t0 + 31 * day);
    expect(await db.selectFrom('sessions').selectAll().execute()).toEqual([
      { id_hash: sha256('plain-session-id'), account_id: 2, created_at: t0, expires_at: t0 + 1000 },
    ]);
    await m005.down(db);
    expect(await db.selectFrom('tokens').selectAll().execute()).toEqual([]);
    await db.destroy();
  });
});
