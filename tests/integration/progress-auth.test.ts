// The progress poll reads the token, its account and the work in one round trip, with no cache: a
// logout, a revoked or an expired token is refused on the very next poll, a bound guest token polls
// the account's works, and nobody else's work answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE } from '../../src/domain/codes.js';
import { secretHash } from '../../server/services/tokens.js';
import { startTestServer, type TestServer } from '../../server/testing/server.js';
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
    expect([mine.status, mine.body.data]).toEqual([200, expect.objectContaining({ trans_id: transId, status: 'finish', progress: 100, step: 1, steps: 1 })]);
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
    await srv.ctx.db.updateTable('tokens').set({ expires_at: Date.now() - 1 }).where('token_hash', '=', hash).execute();
    expect((await u.get('/web_api/v1/progress', { trans_id: transId })).status).toBe(401);
    expect(await srv.ctx.db.selectFrom('tokens').select('token_hash').where('token_hash', '=', hash).executeTakeFirst()).toBeUndefined();

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
    for (const t of [guestWork, userWork]) expect((await guest.get('/web_api/v1/progress', { trans_id: t })).body.data.status).toBe('finish');
    expect((await u.post('/api/v2/unbind_token', { guest_token_v2: guest.token })).body.code).toBe(200);
    for (const t of [guestWork, userWork]) expect((await guest.get('/web_api/v1/progress', { trans_id: t })).status).toBe(404);
  });

  it('slides a token’s expiry at most once per refresh interval, not on every poll', async () => {
    const c = await Client.guest(srv);
    const transId = await finishedWork(c);
    const hash = secretHash(c.token);
    const expiry = async () => (await srv.ctx.db.selectFrom('tokens').select('expires_at').where('token_hash', '=', hash).executeTakeFirstOrThrow()).expires_at;
    const before = await expiry();
    for (let i = 0; i < 5; i++) expect((await c.get('/web_api/v1/progress', { trans_id: transId })).status).toBe(200);
    expect(await expiry()).toBe(before);
  });
});
