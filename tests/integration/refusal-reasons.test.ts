/**
 * Every refusal answers a stable reason code of the catalogue (src/shared/domain/reasons.ts) in
 * data.reason, and data.field where a field is at fault, whatever layer refuses: a request that does not
 * parse, a route schema, a service rule, an upload check, a missing id, the token check, an account form.
 * The spec's numeric codes stay what they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REASON_CODES } from '../../src/shared/domain/reasons.js';
import type { TestServer } from '../support/server.js';
import { Caller, startApiServer, type Answer } from './api-helpers.js';
import { jpeg, send } from './security-helpers.js';

let srv: TestServer;
let guest: Caller;
beforeAll(async () => {
  srv = await startApiServer();
  guest = await Caller.guest(srv);
});
afterAll(() => srv?.stop());

const expectReason = (
  a: Pick<Answer, 'status' | 'body'>,
  want: { status: number; code: number; reason: string; field?: string },
) => {
  expect({ status: a.status, code: a.body.code }).toEqual({ status: want.status, code: want.code });
  expect(REASON_CODES, a.body.data?.reason).toContain(a.body.data?.reason);
  expect(a.body.data).toMatchObject({ reason: want.reason, ...(want.field ? { field: want.field } : {}) });
};

describe('every refusal carries its reason', () => {
  it('a request that does not parse, an unknown path, a cross-site post', async () => {
    const badJson = await send(
      srv.url,
      'POST',
      '/api/v2/thumbsup',
      { 'content-type': 'application/json' },
      '{"trans_id":',
    );
    expect({ status: badJson.status, code: badJson.body?.code, reason: badJson.body?.data?.reason }).toEqual({
      status: 400,
      code: 10001,
      reason: 'badJson',
    });
    const nowhere = await send(srv.url, 'GET', '/api/v2/no_such_call');
    expect({ status: nowhere.status, reason: nowhere.body?.data?.reason }).toEqual({
      status: 404,
      reason: 'routeNotFound',
    });
    const foreign = await send(
      srv.url,
      'POST',
      '/api/v2/thumbsup',
      {
        origin: 'https://evil.example',
        cookie: `guest_token=${guest.token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      'trans_id=x&thumbsup=1',
    );
    expect({ status: foreign.status, reason: foreign.body?.data?.reason }).toEqual({
      status: 403,
      reason: 'crossSite',
    });
  });

  it('a route schema: the field at fault and what it takes', async () => {
    expectReason(await guest.form('/api/v2/thumbsup', { thumbsup: '1' }), {
      status: 200,
      code: 10001,
      reason: 'fieldRequired',
      field: 'trans_id',
    });
    const bad = await guest.form('/api/v2/thumbsup', { trans_id: 'x', thumbsup: '7' });
    expectReason(bad, { status: 200, code: 10001, reason: 'fieldInvalid', field: 'thumbsup' });
    expect(bad.body.data.allowed).toEqual([1, -1, 0]);
  });

  it('the token check, a missing id, a rule of the service', async () => {
    expectReason(await new Caller(srv, 'not-a-token').form('/web_api/v1/upload/list', {}), {
      status: 401,
      code: 6,
      reason: 'unauthorized',
    });
    expectReason(await guest.get('/web_api/v1/progress', { trans_id: 'no-such-work' }), {
      status: 404,
      code: 10001,
      reason: 'workNotFound',
    });
    const up = await guest.upload(await jpeg(), 'a.jpg', 'enlarge');
    expect(up.body.code, up.body.msg).toBe(200);
    const uid = up.body.data.data.uid as string;
    const transform = (jconfig: unknown) =>
      guest.form('/web_api/v1/transform', { uid, jconfig: JSON.stringify(jconfig) });
    expectReason(await transform({ job: 'enlarge', config: { module_params: { scale: 8 } } }), {
      status: 200,
      code: 10001,
      reason: 'scaleSubscribersOnly',
      field: 'jconfig',
    });
    const param = await transform({ job: 'denoise', config: { module_params: { remove_noise: 101 } } });
    expectReason(param, { status: 200, code: 10001, reason: 'paramInvalid', field: 'jconfig' });
    expect(param.body.data).toMatchObject({ module: 'denoise', param: 'remove_noise', min: 0, max: 100 });
  });

  it('an upload check and an account form', async () => {
    expectReason(await guest.upload(Buffer.from('plain text, not an image\n'.repeat(10)), 'notes.jpg'), {
      status: 200,
      code: 10001,
      reason: 'unsupportedImage',
    });
    const form = await new Caller(srv).form(
      '/api/account/register',
      { email: 'not-an-address', password: 'short', confirm_password: 'x' },
      false,
    );
    expectReason(form, { status: 200, code: 1, reason: 'emailInvalid', field: 'email' });
    expect(form.body.data.reasons).toMatchObject({ email: 'emailInvalid', password: 'passwordWeak' });
  });
});
