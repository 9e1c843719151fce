/**
 * Scale-out mode, part 1: every table on PostgreSQL through the same migrations and services, and
 * what clients see while the database is unreachable (503 with a clear envelope) and after it returns.
 * The outage is simulated with a TCP relay in front of the real PostgreSQL; the service itself is never touched.
 * Skips (saying why) when PostgreSQL does not answer on 127.0.0.1:5432.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import {
  createTestDatabase,
  detectScaleout,
  startTcpProxy,
  type TcpProxy,
  type TestDatabase,
} from '../support/modes.js';
import { fixture } from './processing-helpers.js';

const avail = await detectScaleout();
if (!avail.available) console.warn(`scale-out tests SKIPPED: ${avail.reason}`);

type Envelope = { code: number; msg: string; data: any };
const post = async (base: string, path: string, body: Record<string, string> = {}) => {
  const res = await fetch(base + path, { method: 'POST', body: new URLSearchParams(body) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Envelope };
};
const upload = async (base: string, token: string, name: string) => {
  const fd = new FormData();
  fd.set('user_token', token);
  fd.set('job', 'compress');
  fd.set('file', new Blob([fixture(name)]), name);
  const res = await fetch(base + '/web_api/v1/upload', { method: 'POST', body: fd });
  return { status: res.status, body: (await res.json()) as Envelope };
};
const uploadList = async (base: string, token: string) =>
  (await post(base, '/web_api/v1/upload/list', { user_token: token, limit: '1000' })).body.data.datas
    .map((d: any) => d.uid as string)
    .sort();

describe.skipIf(!avail.available)('scale-out: PostgreSQL', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let srv: TestServer;

  beforeAll(async () => {
    db = await createTestDatabase(avail.pgUrl);
    const pg = new URL(avail.pgUrl);
    proxy = await startTcpProxy(pg.hostname, Number(pg.port || 5432));
    srv = await startTestServer({ databaseUrl: proxy.url(db.url), runJobs: false });
  });
  afterAll(async () => {
    await srv?.stop();
    await proxy?.close();
    await db?.drop();
  });

  it('runs the migrations and the token → licence path on PostgreSQL', async () => {
    const tables = await srv.ctx.db
      .selectFrom('information_schema.tables' as any)
      .select('table_name' as any)
      .where('table_schema' as any, '=', 'public')
      .execute();
    const names = tables.map((t: any) => t.table_name);
    for (const t of [
      'accounts',
      'tokens',
      'sessions',
      'uploads',
      'upload_chunks',
      'jobs',
      'credit_ledger',
      'workflows',
      'events',
      'download_bundles',
    ])
      expect(names).toContain(t);

    const g = await post(srv.url, '/api/v2/guest_token');
    expect(g.body.code).toBe(200);
    const lic = await post(srv.url, '/api/v2/license', { guest_token_v2: g.body.data.token });
    expect(lic.body).toMatchObject({
      code: 200,
      data: { user_level: 'guest', max_num: 3, used_num: 0, is_expired: false },
    });
    // The row really is in PostgreSQL, with numeric timestamps.
    const acc = await srv.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', lic.body.data.user_id)
      .executeTakeFirstOrThrow();
    expect(typeof acc.created_at).toBe('number');
    expect(acc.kind).toBe('guest');
  });

  it('answers 503 "Service temporarily unavailable" while PostgreSQL is unreachable, then serves again with nothing lost', async () => {
    const before = (await post(srv.url, '/api/v2/guest_token')).body.data.token as string;
    const kept = await upload(srv.url, before, 'rocket.jpg');
    expect(kept.body.code).toBe(200);
    await proxy.stop();
    try {
      const refused = await upload(srv.url, before, 'chelsea.png');
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({
        code: 503,
        msg: 'Service temporarily unavailable',
        data: { reason: 'serviceUnavailable' },
      });
      for (const [path, body] of [
        ['/api/v2/license', { guest_token_v2: before }],
        ['/api/v2/guest_token', {}],
        ['/web_api/v1/upload/list', { user_token: before }],
      ] as const) {
        const r = await post(srv.url, path, body);
        expect(r.status).toBe(503);
        expect(r.body).toEqual({
          code: 503,
          msg: 'Service temporarily unavailable',
          data: { reason: 'serviceUnavailable' },
        });
        expect(Number(r.retryAfter)).toBeGreaterThan(0);
      }
      // The process itself stays up: its health route needs no database.
      expect((await fetch(srv.url + '/api/health')).status).toBe(200);
    } finally {
      await proxy.start();
    }
    // Recovery: the pool reconnects by itself; a client retrying (bounded) gets through.
    let lic: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 100; i++) {
      lic = await post(srv.url, '/api/v2/license', { guest_token_v2: before });
      if (lic.status !== 503) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(lic!.status).toBe(200);
    expect(lic!.body).toMatchObject({ code: 200, data: { user_level: 'guest', max_num: 3 } });
    // The upload made before the outage is still there; the one refused during it goes through on retry.
    const retried = await upload(srv.url, before, 'chelsea.png');
    expect(retried.body.code).toBe(200);
    expect(await uploadList(srv.url, before)).toEqual([kept.body.data.data.uid, retried.body.data.data.uid].sort());
    const src = await fetch(
      `${srv.url}/web_api/v1/download/src?${new URLSearchParams({ user_token: before, uid: kept.body.data.data.uid })}`,
    );
    expect(src.status).toBe(200);
    expect((await src.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const after = await post(srv.url, '/api/v2/guest_token');
    expect(after.body.code).toBe(200);
    expect(after.body.data.token).not.toBe(before);
  });
});
