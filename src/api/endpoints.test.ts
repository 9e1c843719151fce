// @vitest-environment jsdom
// The client's API layer against the real server: envelopes unwrapped, refusals as ApiError with
// the spec's codes, the token queue of spec §7.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE } from '../shared/domain/codes.js';
import { PLAN_ID_REGISTER } from '../shared/domain/constants.js';
import type { TestServer } from '../../tests/support/server.js';
import { absolute, ApiError, api, call, form, hideApi, waitForUserToken } from './client.js';
import * as endpoints from './endpoints.js';
import { startApiServer, useToken } from '../../tests/support/testServer.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startApiServer();
});
afterAll(() => srv?.stop());

describe('call(): the {code, msg, data} envelope', () => {
  it('returns data on 200', async () => {
    const { token } = await call<{ token: string }>(api, { method: 'POST', url: '/api/v2/guest_token' });
    expect(token).toMatch(/\S{16,}/);
  });
  it('turns a refusal into ApiError with the code and the server text', async () => {
    const err = await call(hideApi, {
      method: 'POST',
      url: '/web_api/v1/upload/delete',
      data: form({ user_token: 'nope' }),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).not.toBe(CODE.OK);
    expect((err as ApiError).message).toBeTruthy();
  });
});

describe('endpoints as a guest', () => {
  let token: string;
  beforeAll(async () => {
    token = (await endpoints.guestToken()).token;
    useToken(token);
  });

  it('license: a new guest is on the register plan id with 3 credits', async () => {
    const lic = await endpoints.license(token);
    expect(lic).toMatchObject({ pid: PLAN_ID_REGISTER, max_num: 3, used_num: 0, user_level: 'guest', left_credits: 3 });
  });

  it('points', async () => {
    expect(await endpoints.points(token)).toMatchObject({ max_num: 3, used_num: 0 });
  });

  it('upload list is empty, then holds an uploaded file; delete removes it', async () => {
    expect((await endpoints.uploadList()).datas).toEqual([]);
    const bytes = fs.readFileSync(path.resolve(import.meta.dirname, '../../tests/fixtures/rocket.jpg'));
    // The upload itself is the worker's (src-worker/uploader.test.ts); here the service stores one.
    const principal = await srv.ctx.services.tokens.resolve(token);
    const { uid } = await srv.ctx.services.uploads.uploadWhole(principal, {
      file: bytes,
      filename: 'rocket.jpg',
      job: 'denoise',
    });
    expect((await endpoints.uploadList()).datas).toEqual([
      expect.objectContaining({ uid, name: 'rocket.jpg', w: 640, h: 427 }),
    ]);
    await endpoints.uploadDelete([uid]);
    expect((await endpoints.uploadList()).datas).toEqual([]);
  });

  it("delete without uid is the spec's 10001 parameter error", async () => {
    await expect(endpoints.uploadDelete([])).rejects.toMatchObject({ code: CODE.PARAM_ERROR });
  });

  it('history is an empty first page', async () => {
    expect(await endpoints.history(1, 10)).toMatchObject({ datas: [], current_page: 1, total: 0 });
  });

  it('sample info is keyed by feature type', async () => {
    const info = await endpoints.sampleInfo();
    expect(typeof info).toBe('object');
    for (const list of Object.values(info))
      for (const s of list)
        expect(s).toEqual(expect.objectContaining({ name: expect.any(String), original: expect.any(String) }));
  });
});

describe('endpoints as a registered user', () => {
  it('saves a workflow, lists it, renames it through update, deletes it', async () => {
    const acc = await srv.ctx.services.accounts.register({
      email: 'api-test@example.com',
      password: 'abcd1234',
      confirm_password: 'abcd1234',
    });
    useToken(await srv.ctx.services.tokens.userTokenFor(acc.id));
    const flows = [{ name: 'denoise', config: { module: 'denoise', module_params: { remove_noise: 60 } } }];
    const { id } = await endpoints.workflowAdd('night', flows);
    const page = await endpoints.workflowList(1, 10);
    expect(page).toMatchObject({ current_page: 1, total: 1, datas: [expect.objectContaining({ id, name: 'night' })] });
    // Rename keeps the steps: their config may come back as the JSON string the list holds.
    await endpoints.workflowAdd('renamed', page.datas[0].flows, id);
    const after = await endpoints.workflowList(1, 10);
    expect(after.datas[0]).toMatchObject({ id, name: 'renamed' });
    const cfg = after.datas[0].flows[0].config;
    expect(typeof cfg === 'string' ? JSON.parse(cfg) : cfg).toMatchObject({
      module: 'denoise',
      module_params: { remove_noise: 60 },
    });
    await endpoints.workflowDelete(id);
    expect((await endpoints.workflowList(1, 10)).total).toBe(0);
  });
});

describe('the token queue (spec §7: retried every 100 ms until a token exists)', () => {
  it('waits for the cookie', async () => {
    useToken(undefined);
    const waiting = waitForUserToken();
    // the token arrives after the first look (the wait must keep asking, not fail at once)
    setTimeout(() => useToken('later-token'), 0);
    await expect(waiting).resolves.toBe('later-token');
  });
  it('gives up when aborted', async () => {
    useToken(undefined);
    const ctrl = new AbortController();
    const waiting = waitForUserToken(ctrl.signal);
    ctrl.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('request helpers', () => {
  it('form() leaves out undefined fields; absolute() builds the query', () => {
    expect(form({ a: 1, b: undefined, c: 'x y' }).toString()).toBe('a=1&c=x+y');
    expect(absolute('http://h', '/web_api/v1/download/', { trans_id: 't 1', user_token: undefined })).toBe(
      'http://h/web_api/v1/download/?trans_id=t+1',
    );
  });
});
