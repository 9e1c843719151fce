/**
 * POST /web_api/v1/upload with an Idempotency-Key (issue 47: a reload while a whole file's answer was on
 * its way sends the file again): the repeat — in sequence or racing — is answered the first's upload and
 * stores one row and one set of blobs; another account's same key is its own upload; the key with other
 * bytes is refused (422 idempotencyKeyReused) and stores nothing. Both run modes (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { Client, fixture, processingServers } from './processing-helpers.js';

const { server } = await processingServers();

async function upload(c: Client, bytes: Buffer, key: string) {
  const fd = new FormData();
  fd.append('user_token', c.token);
  fd.append('job', 'compress');
  fd.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
  const r = await fetch(c.url('/web_api/v1/upload'), { method: 'POST', body: fd, headers: { 'idempotency-key': key } });
  const body = (await r.json()) as { code: number; data: { data?: { uid: string }; reason?: string; field?: string } };
  return { status: r.status, body, uid: body.data.data?.uid };
}

/** The account's uploads as stored (a duplicate would add a row) and the blobs behind them. */
async function stored(srv: TestServer, c: Client) {
  const p = await srv.ctx.services.tokens.resolve(c.token);
  const rows = await srv.ctx.db
    .selectFrom('uploads')
    .select(['uid', 'blob_key'])
    .where('account_id', '=', p.accountId)
    .execute();
  return rows.map((r) => r.uid);
}

describe('whole-file upload with an Idempotency-Key', () => {
  it('two racing, then a third in sequence: one upload, one uid', async () => {
    const srv = await server();
    const c = await Client.guest(srv);
    const photo = fixture('rocket.jpg');
    const key = 'card-5a1e-upload';
    const racing = await Promise.all([upload(c, photo, key), upload(c, photo, key)]);
    expect(racing.map((r) => [r.status, r.body.code])).toEqual([
      [200, 200],
      [200, 200],
    ]);
    const uid = racing[0]!.uid;
    expect(racing[1]!.uid).toBe(uid);
    const again = await upload(c, photo, key);
    expect([again.body.code, again.uid]).toEqual([200, uid]);
    expect(await stored(srv, c)).toEqual([uid]);
  });

  it("another account's same key is its own upload; the key with other bytes is refused and stores nothing", async () => {
    const srv = await server();
    const a = await Client.guest(srv);
    const b = await Client.guest(srv);
    const key = 'shared-upload-key';
    const first = await upload(a, fixture('rocket.jpg'), key);
    const other = await upload(b, fixture('rocket.jpg'), key);
    expect([first.body.code, other.body.code]).toEqual([200, 200]);
    expect(other.uid).not.toBe(first.uid);

    const reused = await upload(a, fixture('LadyBird.jpg'), key);
    expect([reused.status, reused.body.data.reason]).toEqual([422, 'idempotencyKeyReused']);
    expect(await stored(srv, a)).toEqual([first.uid]);

    const bad = await upload(a, fixture('rocket.jpg'), 'a key with spaces');
    expect([bad.body.code === 200, bad.body.data.reason, bad.body.data.field]).toEqual([
      false,
      'fieldInvalid',
      'Idempotency-Key',
    ]);
    expect(await stored(srv, a)).toEqual([first.uid]);
  });
});
