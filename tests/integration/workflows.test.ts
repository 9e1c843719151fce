import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { Caller, startApiServer } from './api-helpers.js';

let srv: TestServer;
let user: Caller;
let pro: Caller;
beforeAll(async () => {
  srv = await startApiServer();
  user = await Caller.user(srv, 'wf-user@example.com');
  pro = await Caller.user(srv, 'wf-pro@example.com', 'pro');
});
afterAll(() => srv?.stop());

const step = (module: string, module_params: Record<string, unknown> = {}) => ({
  name: module,
  config: JSON.stringify({ module, module_params }),
});
const flows = (...s: ReturnType<typeof step>[]) => JSON.stringify(s);

describe('workflows', () => {
  it('guests get code 6 on every workflow call', async () => {
    const g = await Caller.guest(srv);
    for (const r of [
      await g.get('/api/work_flow/list'),
      await g.form('/api/work_flow/add', { name: 'x', flows: flows(step('denoise')) }),
      await g.form('/api/work_flow/delete', { id: '1' }),
      await g.form('/api/work_flow/active_flows', {}),
    ]) {
      expect(r.body.code).toBe(6);
    }
  });

  it('add stores config as a JSON string with defaults filled; update and list show it', async () => {
    const add = await user.form('/api/work_flow/add', {
      name: 'Night',
      flows: flows(step('denoise', { remove_noise: 60 }), step('perfect')),
    });
    expect(add.body.code, add.body.msg).toBe(200);
    const id = add.body.data.id;
    const list = await user.get('/api/work_flow/list', { page: '1' });
    const wf = list.body.data.datas.find((d: { id: number }) => d.id === id);
    expect(wf).toMatchObject({ id, name: 'Night', active: false });
    expect(typeof wf.flows[0].config).toBe('string');
    expect(JSON.parse(wf.flows[0].config)).toEqual({
      module: 'denoise',
      module_params: {
        model_name: 'DenoiseStable',
        remove_noise: 60,
        sharpen: 75,
        remove_original_detail: 0,
        autoparams: false,
      },
    });
    expect(wf.flows.map((f: { name: string }) => f.name)).toEqual(['denoise', 'perfect']);

    // Flows as a JSON array body, configs as objects, work as well.
    const upd = await user.json('/api/work_flow/update', {
      id,
      name: 'Night 2',
      flows: [{ name: 'sharpen', config: { module: 'sharpen', module_params: { sharpness: 10 } } }],
    });
    expect(upd.body.code, upd.body.msg).toBe(200);
    expect(upd.body.data).toMatchObject({ id, name: 'Night 2' });
    expect(JSON.parse(upd.body.data.flows[0].config).module_params.sharpness).toBe(10);
  });

  it('name rules: empty → workflow_<timestamp>, more than 50 characters refused', async () => {
    const before = Date.now();
    const r = await user.form('/api/work_flow/add', { name: '  ', flows: flows(step('denoise')) });
    const list = await user.get('/api/work_flow/list');
    const wf = list.body.data.datas.find((d: { id: number }) => d.id === r.body.data.id);
    expect(wf.name).toMatch(/^workflow_\d+$/);
    expect(Number(wf.name.slice(9))).toBeGreaterThanOrEqual(before);
    expect(
      (await user.form('/api/work_flow/add', { name: 'n'.repeat(50), flows: flows(step('denoise')) })).body.code,
    ).toBe(200);
    expect(
      (await user.form('/api/work_flow/add', { name: 'n'.repeat(51), flows: flows(step('denoise')) })).body,
    ).toMatchObject({ code: 10001, data: { reason: 'workflowNameTooLong', max: 50 } });
  });

  it('step rules: no steps, chain order, step count by level, entitlements, bad params', async () => {
    const refuse = async (c: Caller, f: string, data: Record<string, unknown>) => {
      const r = await c.form('/api/work_flow/add', { name: 'bad', flows: f });
      expect(r.body).toMatchObject({ code: 10001, data: { field: 'flows', ...data } });
    };
    await refuse(user, '[]', { reason: 'noValidWorkflow' });
    await refuse(user, 'not json', { reason: 'noValidWorkflow' });
    await refuse(user, flows({ name: 'x', config: '{"module":"teleport"}' }), { reason: 'noValidWorkflow' });
    await refuse(user, flows(step('enlarge'), step('denoise')), { reason: 'lastStepOnly', module: 'enlarge' });
    await refuse(user, flows(step('matting'), step('denoise')), { reason: 'lastStepOnly', module: 'matting' });
    await refuse(user, flows(step('denoise'), step('sharpen'), step('perfect'), step('cartoonize')), {
      reason: 'tooManySteps',
      max: 3,
    });
    await refuse(user, flows(step('enlarge', { scale: 4 })), { reason: 'scaleSubscribersOnly', scale: 4 });
    await refuse(user, flows(step('colorize', { psd: true })), { reason: 'psdProOnly' });
    await refuse(user, flows(step('denoise', { remove_noise: 101 })), {
      reason: 'paramInvalid',
      module: 'denoise',
      param: 'remove_noise',
      min: 0,
      max: 100,
    });
    await refuse(user, flows(step('denoise', { nonsense: 1 })), { reason: 'paramUnknown', param: 'nonsense' });
    // Pro: 5 steps, 8x and PSD are fine; 6 steps are not.
    const five = flows(
      step('denoise'),
      step('sharpen'),
      step('perfect'),
      step('colorize', { psd: true }),
      step('enlarge', { scale: 8 }),
    );
    expect((await pro.form('/api/work_flow/add', { name: 'five', flows: five })).body.code).toBe(200);
    await refuse(
      pro,
      flows(
        step('denoise'),
        step('sharpen'),
        step('perfect'),
        step('cartoonize'),
        step('face_enhancer'),
        step('enlarge'),
      ),
      { reason: 'tooManySteps', max: 5 },
    );
  });

  it('paging: page from 1, 10 per page, total and last_page', async () => {
    const c = await Caller.user(srv, 'wf-pages@example.com');
    const ids: number[] = [];
    for (let i = 0; i < 23; i++)
      ids.push((await c.form('/api/work_flow/add', { name: `w${i}`, flows: flows(step('denoise')) })).body.data.id);
    const p1 = await c.get('/api/work_flow/list');
    expect(p1.body.data).toMatchObject({ current_page: 1, total: 23, last_page: 3 });
    expect(p1.body.data.datas).toHaveLength(10);
    expect(p1.body.data.datas[0].id).toBe(ids[22]);
    const p3 = await c.get('/api/work_flow/list', { page: '3' });
    expect(p3.body.data.datas.map((d: { name: string }) => d.name)).toEqual(['w2', 'w1', 'w0']);
    expect((await c.get('/api/work_flow/list', { page: '4' })).body.data.datas).toEqual([]);
    expect((await c.get('/api/work_flow/list', { page: '2', limit: '5' })).body.data).toMatchObject({
      current_page: 2,
      last_page: 5,
    });
    for (const q of [{ page: '0' }, { page: 'x' }, { limit: '0' }, { limit: '1000' }] as Record<string, string>[])
      expect((await c.get('/api/work_flow/list', q)).body.code).toBe(10001);
    const empty = await Caller.user(srv, 'wf-empty@example.com');
    expect((await empty.get('/api/work_flow/list')).body.data).toEqual({
      datas: [],
      current_page: 1,
      total: 0,
      last_page: 1,
      per_page: 10,
    });
  });

  it('another account cannot see, update, delete or activate a workflow', async () => {
    const owner = await Caller.user(srv, 'wf-owner@example.com');
    const other = await Caller.user(srv, 'wf-other@example.com');
    const id = String(
      (await owner.form('/api/work_flow/add', { name: 'mine', flows: flows(step('denoise')) })).body.data.id,
    );
    expect((await other.get('/api/work_flow/list')).body.data.total).toBe(0);
    const upd = await other.form('/api/work_flow/update', { id, name: 'stolen', flows: flows(step('denoise')) });
    expect(upd.status).toBe(404);
    expect(upd.body.code).toBe(10001);
    expect((await other.form('/api/work_flow/delete', { id })).status).toBe(404);
    expect((await other.form('/api/work_flow/active_flows', { ids: id })).status).toBe(404);
    expect((await owner.get('/api/work_flow/list')).body.data.datas[0]).toMatchObject({ name: 'mine' });
  });

  it('delete by id or ids (all or nothing); active_flows sets and reads the shown list', async () => {
    const c = await Caller.user(srv, 'wf-del@example.com');
    const ids: number[] = [];
    for (let i = 0; i < 4; i++)
      ids.push((await c.form('/api/work_flow/add', { name: `d${i}`, flows: flows(step('denoise')) })).body.data.id);
    const act = await c.form('/api/work_flow/active_flows', { ids: `${ids[0]},${ids[2]}` });
    expect(act.body.data.datas.map((d: { id: number }) => d.id)).toEqual([ids[2], ids[0]]);
    expect((await c.form('/api/work_flow/active_flows', {})).body.data.datas).toHaveLength(2);
    expect((await c.form('/api/work_flow/delete', { ids: `${ids[0]},999999` })).body.code).toBe(10001);
    expect((await c.get('/api/work_flow/list')).body.data.total).toBe(4);
    expect((await c.form('/api/work_flow/delete', { id: String(ids[0]) })).body.data).toEqual({ deleted: 1 });
    expect((await c.json('/api/work_flow/delete', { ids: [ids[1], ids[2]] })).body.data).toEqual({ deleted: 2 });
    expect((await c.form('/api/work_flow/delete', { ids: 'abc' })).body.code).toBe(10001);
    expect((await c.form('/api/work_flow/active_flows', {})).body.data.datas).toEqual([]);
    expect((await c.get('/api/work_flow/list')).body.data.datas.map((d: { id: number }) => d.id)).toEqual([ids[3]]);
    expect((await c.form('/api/work_flow/active_flows', { ids: '' })).body.data.datas).toEqual([]);
  });
});
