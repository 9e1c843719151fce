// The progress poll reads the token, its account and the work in one round trip, with no cache: a
// logout, a revoked or an expired token is refused on the very next poll, a bound guest token polls
// the account's works, and nobody else's work answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE } from '../../src/shared/domain/codes.js';
import { TokenRepository } from '../../server/repositories/tokenRepository.js';
import { secretHash } from '../../server/services/tokens.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Client, COMPRESS, fixture } from './processing-helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv?.stop());

async function finishedWork(c: Client): Promise<string> {
  const uid = await c.upload(fixture('rocket.jpg'), 'rocket.jpg');
  const transId = (await c.transform(uid, COMPRESS)).body.data.trans_id;
  expect((await c.waitEnd(transId)).data.status).toBe('finish');
  return transId;
}

async function user(email: string): Promise<Client> {
  const a = await srv.ctx.services.accounts.register({ email, password: 'abcd1234', confirm_password: 'abcd1234' });
  return new Client(srv, await srv.ctx.services.tokens.issueUserToken(a.id));
}

describe('progress poll authorisation (token, account and work in one read)', () => {
  it('answers the owner, 404 for another account and for an unknown work, 401 without a live token', async () => {
    const owner = await Client.guest(srv);
    const other = await Client.guest(srv);
    const transId = await finishedWork(owner);
    const mine = await owner.get('/web_api/v1/progress', { trans_id: transId });
    expect([mine.status, mine.body.data]).toEqual([
      200,
      expect.objectContaining({ trans_id: transId, status: 'finish', progress: 100, step: 1, steps: 1 }),
    ]);
    const theirs = await other.get('/web_api/v1/progress', { trans_id: transId });
    expect([theirs.status, theirs.body.code]).toEqual([404, CODE.PARAM_ERROR]);
    expect((await owner.get('/web_api/v1/progress', { trans_id: 'no-such-work' })).status).toBe(404);
    // a missing trans_id is a parameter error once the token is known; an unknown token is 401 either way
    const noId = await owner.get('/web_api/v1/progress');
    expect(noId.body.code).toBe(CODE.PARAM_ERROR);
    for (const q of [{ trans_id: transId }, {}] as Record<string, string>[]) {
      const r = await new Client(srv, 'g_doesnotexistdoesnotexist').get('/web_api/v1/progress', q);
      expect([r.status, r.body.code]).toEqual([401, CODE.VERIFICATION_FAILED]);
    }
  });

  it('a logged-out user token is refused on the next poll', async () => {
    const u = await user('progress-logout@example.com');
    const transId = await finishedWork(u);
    expect((await u.get('/web_api/v1/progress', { trans_id: transId })).status).toBe(200);
    expect((await u.post('/api/account/logout')).status).toBe(200);
    const after = await u.get('/web_api/v1/progress', { trans_id: transId });
    expect([after.status, after.body.code]).toEqual([401, CODE.VERIFICATION_FAILED]);
  });

  it('an expired user token is refused and deleted; a revoked one (password change) is refused', async () => {
    const u = await user('progress-expired@example.com');
    const transId = await finishedWork(u);
    const hash = secretHash(u.token);
    await srv.ctx.db
      .updateTable('tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('token_hash', '=', hash)
      .execute();
    expect((await u.get('/web_api/v1/progress', { trans_id: transId })).status).toBe(401);
    expect(
      await srv.ctx.db.selectFrom('tokens').select('token_hash').where('token_hash', '=', hash).executeTakeFirst(),
    ).toBeUndefined();

    const v = await user('progress-revoked@example.com');
    const t2 = await finishedWork(v);
    const account = (await srv.ctx.services.tokens.resolve(v.token)).accountId;
    await srv.ctx.services.tokens.revokeAll(account);
    expect((await v.get('/web_api/v1/progress', { trans_id: t2 })).status).toBe(401);
  });

  it('a guest token bound to an account polls the account’s works (its own moved there) until unbound', async () => {
    const guest = await Client.guest(srv);
    const guestWork = await finishedWork(guest);
    const u = await user('progress-bound@example.com');
    const userWork = await finishedWork(u);
    expect((await u.post('/api/v2/bind_token', { guest_token_v2: guest.token })).body.code).toBe(200);
    for (const t of [guestWork, userWork])
      expect((await guest.get('/web_api/v1/progress', { trans_id: t })).body.data.status).toBe('finish');
    expect((await u.post('/api/v2/unbind_token', { guest_token_v2: guest.token })).body.code).toBe(200);
    for (const t of [guestWork, userWork])
      expect((await guest.get('/web_api/v1/progress', { trans_id: t })).status).toBe(404);
  });

  it('slides a token’s expiry at most once per refresh interval, not on every poll', async () => {
    const c = await Client.guest(srv);
    const transId = await finishedWork(c);
    const hash = secretHash(c.token);
    const expiry = async () =>
      (
        await srv.ctx.db
          .selectFrom('tokens')
          .select('expires_at')
          .where('token_hash', '=', hash)
          .executeTakeFirstOrThrow()
      ).expires_at;
    const before = await expiry();
    for (let i = 0; i < 5; i++) expect((await c.get('/web_api/v1/progress', { trans_id: transId })).status).toBe(200);
    expect(await expiry()).toBe(before);
  });

  // Scale-out: polls that arrive together are read by one statement (server/repositories/pollBatch.ts).
  // Each caller must get its own row, and a refused token stays refused however it is batched.
  const scaleout = () => process.env.PIXMILL_TEST_MODE === 'scaleout';
  const batchStats = () => ({ batches: 0, keys: 0, ...new TokenRepository(srv.ctx.db).pollBatchStats() });
  const poll = (token: string, transId: string) => srv.ctx.services.tokens.resolveWithProgress(token, transId);
  const accountOf = async (c: Client) => (await srv.ctx.services.tokens.resolve(c.token)).accountId;

  it('concurrent polls of different tokens in one batch each get their own answer (own work, nobody else’s)', async () => {
    const [a, b, c] = [await Client.guest(srv), await Client.guest(srv), await Client.guest(srv)];
    const [wa, wb, wc] = [await finishedWork(a), await finishedWork(b), await finishedWork(c)];
    const ids = { a: await accountOf(a), b: await accountOf(b), c: await accountOf(c) };
    const asks: [Client, string, number, string | undefined][] = [
      [a, wa, ids.a, wa],
      [b, wb, ids.b, wb],
      [c, wc, ids.c, wc],
      [a, wb, ids.a, undefined], // b's work asked with a's token
      [b, wa, ids.b, undefined],
      [a, wa, ids.a, wa], // the same poll twice in one batch
      [c, 'no-such-work', ids.c, undefined],
      [b, wc, ids.b, undefined],
    ];
    const before = batchStats();
    const got = await Promise.all(asks.map(([cl, t]) => poll(cl.token, t)));
    const after = batchStats();
    expect(got.map((g) => [g.principal.accountId, g.job?.trans_id])).toEqual(asks.map(([, , acc, job]) => [acc, job]));
    expect(got.map((g) => g.principal.token)).toEqual(asks.map(([cl]) => cl.token));
    // the polls asked in one turn went out as one statement on PostgreSQL (SQLite reads each alone)
    if (scaleout()) expect([after.batches - before.batches, after.keys - before.keys]).toEqual([1, asks.length]);
    else expect(after).toEqual(before);

    // the same over HTTP, all at once
    const http = await Promise.all(asks.map(([cl, t]) => cl.get('/web_api/v1/progress', { trans_id: t })));
    expect(http.map((r) => [r.status, r.body.data?.trans_id])).toEqual(
      asks.map(([, t, , job]) => (job ? [200, t] : [404, undefined])),
    );
  });

  it('a revoked, an expired and an unknown token batched with live ones are refused; the live ones are answered', async () => {
    const live = [await Client.guest(srv), await Client.guest(srv)];
    const liveWork = [await finishedWork(live[0]!), await finishedWork(live[1]!)];
    const revoked = await user('progress-batch-revoked@example.com');
    const revokedWork = await finishedWork(revoked);
    const expired = await user('progress-batch-expired@example.com');
    const expiredWork = await finishedWork(expired);
    await srv.ctx.services.tokens.revokeAll(await accountOf(revoked));
    await srv.ctx.db
      .updateTable('tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('token_hash', '=', secretHash(expired.token))
      .execute();

    const asks: [string, string][] = [
      [live[0]!.token, liveWork[0]!],
      [revoked.token, revokedWork],
      [live[1]!.token, liveWork[1]!],
      [expired.token, expiredWork],
      ['g_doesnotexistdoesnotexist', liveWork[0]!],
      [live[0]!.token, liveWork[0]!],
    ];
    const before = batchStats();
    const got = await Promise.allSettled(asks.map(([t, w]) => poll(t, w)));
    const after = batchStats();
    const summary = got.map((g) =>
      g.status === 'fulfilled' ? g.value.job?.trans_id : (g.reason as { httpStatus?: number }).httpStatus,
    );
    expect(summary).toEqual([liveWork[0], 401, liveWork[1], 401, 401, liveWork[0]]);
    if (scaleout()) expect(after.batches - before.batches).toBe(1);
    // the expired user token was deleted as when polled alone
    expect(
      await srv.ctx.db
        .selectFrom('tokens')
        .select('token_hash')
        .where('token_hash', '=', secretHash(expired.token))
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('a trans_id PostgreSQL cannot read (a NUL) is read alone: the polls arriving with it are answered', async () => {
    const a = await Client.guest(srv);
    const b = await Client.guest(srv);
    const [wa, wb] = [await finishedWork(a), await finishedWork(b)];
    const got = await Promise.allSettled([poll(a.token, wa), poll(b.token, `${wb}\u0000`), poll(b.token, wb)]);
    expect(got[0]).toMatchObject({ status: 'fulfilled', value: { job: { trans_id: wa } } });
    expect(got[2]).toMatchObject({ status: 'fulfilled', value: { job: { trans_id: wb } } });
    // alone it finds no work (SQLite) or fails as before (PostgreSQL refuses the text): never b's work
    expect(got[1].status === 'rejected' || got[1].value.job === undefined).toBe(true);
  });
});
