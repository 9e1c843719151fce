// Every route checks its fields against its schema (src/shared/schemas/): a field that fails answers the
// spec's parameter error 10001 (HTTP 200) naming the field, wherever the fields came from (query,
// urlencoded or JSON body, multipart fields), and a field that passes reaches the service converted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { Caller, startApiServer } from './api-helpers.js';

describe('route schemas', () => {
  let srv: TestServer;
  let user: Caller;
  beforeAll(async () => {
    srv = await startApiServer();
    user = await Caller.user(srv, 'schemas@example.com');
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('names a missing field, from a form, JSON or multipart body', async () => {
    const want = { code: 10001, msg: 'trans_id is required', data: { reason: 'fieldRequired', field: 'trans_id' } };
    for (const r of [
      await user.form('/api/v2/thumbsup', { thumbsup: '1' }),
      await user.json('/api/v2/thumbsup', { thumbsup: 1 }),
      await user.multipart('/api/v2/thumbsup', { thumbsup: '1' }, {}),
    ]) {
      expect(r.status).toBe(200);
      expect(r.body).toEqual(want);
    }
  });

  it('names a field of the wrong shape with what it must be', async () => {
    expect((await user.form('/api/v2/thumbsup', { trans_id: 'x', thumbsup: '5' })).body).toEqual({
      code: 10001,
      msg: 'thumbsup must be one of 1, -1, 0',
      data: { reason: 'fieldInvalid', field: 'thumbsup', allowed: [1, -1, 0] },
    });
    expect((await user.form('/api/v2/thumbsup', { trans_id: 'x', thumbsup: '1.0x' })).body).toMatchObject({
      code: 10001,
      data: { field: 'thumbsup' },
    });
    // integers a request carries are bounded (ids and counts at most 2^31 − 1, docs/api.md)
    expect((await user.get('/api/job/record', { limit: 'x' })).body).toEqual({
      code: 10001,
      msg: 'limit must be an integer from 1 to 2147483647',
      data: { reason: 'fieldInvalid', field: 'limit', min: 1, max: 2147483647 },
    });
    expect((await user.get('/api/job/record', { limit: '1.5' })).body).toMatchObject({
      code: 10001,
      data: { field: 'limit' },
    });
    expect((await user.get('/api/job/record', { page: '0' })).body).toMatchObject({
      code: 10001,
      msg: 'page must be an integer from 1 to 1000000',
      data: { reason: 'fieldInvalid', field: 'page', min: 1, max: 1000000 },
    });
  });

  it('passes converted fields on, from the query of a POST as well', async () => {
    const r = await user.fetch(
      '/api/v2/thumbsup',
      { method: 'POST', body: new URLSearchParams({ user_token: user.token }) },
      { trans_id: 'no-such-work', thumbsup: '-1' },
    );
    // the shape is right: the service answers (another account's or an unknown work is not found)
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ code: 10001, data: { reason: 'workNotFound' } });
    const page = await user.get('/api/job/record', { limit: '2', page: '1' });
    expect(page.body).toMatchObject({ code: 200, data: { datas: [], current_page: 1, total: 0, last_page: 1 } });
  });

  it('refuses a NUL byte before the schema, and checks the token before a schema-valid call does anything', async () => {
    expect((await user.form('/api/v2/thumbsup', { trans_id: 'a\u0000b', thumbsup: '1' })).body).toMatchObject({
      code: 10001,
      data: { reason: 'nulByte' },
    });
    const anon = new Caller(srv);
    expect((await anon.form('/api/v2/thumbsup', { trans_id: 'x', thumbsup: '1' })).body).toMatchObject({ code: 6 });
  });
});
