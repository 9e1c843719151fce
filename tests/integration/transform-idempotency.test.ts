/**
 * POST /web_api/v1/transform with an Idempotency-Key (issue 47 point 1): a start the reloaded page resends —
 * in sequence, or racing the first still on the wire — is one work, charged once, answered the same
 * trans_id; the same key from another account is its own start; a key reused for another upload is
 * refused (422 idempotencyKeyReused). Both run modes (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { Client, COMPRESS, fixture, processingServers } from './processing-helpers.js';

const { server } = await processingServers();

async function start(c: Client, uid: string, key: string) {
  const r = await fetch(c.url('/web_api/v1/transform'), {
    method: 'POST',
    headers: { 'idempotency-key': key },
    body: new URLSearchParams({ user_token: c.token, uid, jconfig: JSON.stringify(COMPRESS) }),
  });
  const body = (await r.json()) as { code: number; data: { trans_id: string; reason?: string; field?: string } };
  return { status: r.status, charged: r.headers.get('x-credits-charged'), body };
}

/** The account's works and charges as stored: the rows a duplicate start would add. */
async function stored(srv: TestServer, c: Client) {
  const p = await srv.ctx.services.tokens.resolve(c.token);
  const works = await srv.ctx.db.selectFrom('jobs').select('trans_id').where('account_id', '=', p.accountId).execute();
  const charges = await srv.ctx.db
    .selectFrom('credit_ledger')
    .select('ref')
    .where('account_id', '=', p.accountId)
    .where('kind', '=', 'compress_charge')
    .execute();
  const account = await srv.ctx.db
    .selectFrom('accounts')
    .select('compress_used')
    .where('id', '=', p.accountId)
    .executeTakeFirstOrThrow();
  return {
    works: works.map((w) => w.trans_id),
    charges: charges.map((r) => r.ref),
    used: Number(account.compress_used),
  };
}

describe('transform with an Idempotency-Key', () => {
  it('two starts racing with one key, then a third in sequence: one work, one charge, one trans_id', async () => {
    const srv = await server();
    const c = await Client.guest(srv);
    const uid = await c.upload(fixture('rocket.jpg'), 'rocket.jpg');
    const key = 'start-7f3c2a9e-card-1';
    const racing = await Promise.all([start(c, uid, key), start(c, uid, key)]);
    expect(racing.map((r) => [r.status, r.body.code])).toEqual([
      [200, 200],
      [200, 200],
    ]);
    const transId = racing[0]!.body.data.trans_id;
    expect(racing[1]!.body.data.trans_id).toBe(transId);
    expect(racing.map((r) => r.charged).sort()).toEqual(['0', '1']);

    const again = await start(c, uid, key);
    expect([again.body.code, again.body.data.trans_id, again.charged]).toEqual([200, transId, '0']);
    expect(await stored(srv, c)).toEqual({ works: [transId], charges: [transId], used: 1 });
  });

  it('the same key from another account is its own start; a key reused for another upload is refused', async () => {
    const srv = await server();
    const a = await Client.guest(srv);
    const b = await Client.guest(srv);
    const key = 'shared-key';
    const first = await start(a, await a.upload(fixture('rocket.jpg'), 'rocket.jpg'), key);
    const other = await start(b, await b.upload(fixture('rocket.jpg'), 'rocket.jpg'), key);
    expect([first.body.code, other.body.code, other.charged]).toEqual([200, 200, '1']);
    expect(other.body.data.trans_id).not.toBe(first.body.data.trans_id);
    expect((await stored(srv, b)).works).toEqual([other.body.data.trans_id]);

    const reused = await start(a, await a.upload(fixture('rocket.jpg'), 'rocket2.jpg'), key);
    expect([reused.status, reused.body.data.reason, reused.body.data.field]).toEqual([
      422,
      'idempotencyKeyReused',
      'Idempotency-Key',
    ]);
    const bad = await start(a, 'x', 'bad key with spaces');
    expect([bad.body.data.reason, bad.body.data.field]).toEqual(['fieldInvalid', 'Idempotency-Key']);
    expect(await stored(srv, a)).toMatchObject({ works: [first.body.data.trans_id], used: 1 });
  });
});
