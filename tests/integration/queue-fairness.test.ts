/**
 * The queue's order and caps over real HTTP (issue 48; the rule: src/shared/domain/queueOrder.ts), in the
 * suite's mode: embedded (the jobs table) and, in the scale-out pass, PostgreSQL + BullMQ. Works are
 * queued while the server runs none (runJobs off), their places are read from progress, then one slot
 * runs them and the order they started in is read back from the jobs table.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../server/config.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Caller, fixture } from './api-helpers.js';
import { COMPRESS } from './processing-helpers.js';
import { until } from './until.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

/** One slot, no runner until the test starts it, and the client address taken from X-Forwarded-For (a proxy on loopback). */
async function server(overrides: Partial<Config> = {}): Promise<TestServer> {
  const srv = await startTestServer({ runJobs: false, processWorkers: 1, trustProxy: ['127.0.0.1'], ...overrides });
  servers.push(srv);
  return srv;
}

/** A caller whose requests come from `address` (through the trusted proxy). */
class Someone {
  constructor(
    readonly c: Caller,
    readonly address: string,
  ) {}

  static async guest(srv: TestServer, address: string) {
    return new Someone(await Caller.guest(srv), address);
  }

  static async user(srv: TestServer, email: string, address: string, plan?: 'basic' | 'pro') {
    return new Someone(await Caller.user(srv, email, plan), address);
  }

  private headers() {
    return { 'x-forwarded-for': this.address };
  }

  async upload(): Promise<string> {
    const fd = new FormData();
    fd.set('user_token', this.c.token);
    fd.set('job', 'compress');
    fd.set('file', new Blob([fixture('rocket.jpg')]), 'rocket.jpg');
    const r = await this.c.fetch('/web_api/v1/upload', { method: 'POST', body: fd, headers: this.headers() });
    const body = (await r.json()) as { code: number; data: { data: { uid: string } } };
    if (body.code !== 200) throw new Error(`upload failed: ${JSON.stringify(body)}`);
    return body.data.data.uid;
  }

  async start(uid?: string): Promise<{ status: number; body: any }> {
    const body = new URLSearchParams({
      user_token: this.c.token,
      uid: uid ?? (await this.upload()),
      jconfig: JSON.stringify(COMPRESS),
    });
    const r = await this.c.fetch('/web_api/v1/transform', { method: 'POST', body, headers: this.headers() });
    return { status: r.status, body: await r.json() };
  }

  async work(): Promise<string> {
    const r = await this.start();
    if (r.body.code !== 200) throw new Error(`transform failed: ${JSON.stringify(r.body)}`);
    return r.body.data.trans_id as string;
  }

  async place(transId: string): Promise<number | undefined> {
    return (await this.c.get('/web_api/v1/progress', { trans_id: transId })).body.data.queue_position;
  }
}

/** trans_ids in the order their works started (one slot: one at a time). */
async function startOrder(srv: TestServer): Promise<string[]> {
  const rows = await srv.ctx.db
    .selectFrom('jobs')
    .select(['trans_id', 'started_at'])
    .orderBy('started_at')
    .orderBy('trans_id')
    .execute();
  return rows.map((r) => r.trans_id);
}

async function allFinished(srv: TestServer, count: number): Promise<void> {
  const done = await until(
    async () =>
      (await srv.ctx.db.selectFrom('jobs').select('status').execute()).filter(
        (r) => r.status === 'finished' || r.status === 'failed',
      ).length,
    (n) => n >= count,
    { timeoutMs: 120_000 },
  );
  expect(done).toBe(count);
  const failed = await srv.ctx.db.selectFrom('jobs').select('trans_id').where('status', '!=', 'finished').execute();
  expect(failed).toEqual([]);
}

describe('queue order: levels, turns, places', () => {
  it('Pro before Basic before registered before guests; accounts take turns; queue_position says the order', async () => {
    // No aging within this test: its order is the levels' and turns' alone.
    const srv = await server({ queueAgingMs: 3_600_000 });
    const guests = await Promise.all([1, 2, 3].map((i) => Someone.guest(srv, `198.51.100.${i}`)));
    const reg = await Someone.user(srv, 'reg@example.com', '198.51.100.20');
    const basic = await Someone.user(srv, 'basic@example.com', '198.51.100.21', 'basic');
    const pro1 = await Someone.user(srv, 'pro1@example.com', '198.51.100.22', 'pro');
    const pro2 = await Someone.user(srv, 'pro2@example.com', '198.51.100.23', 'pro');

    // Started oldest first: the guests', the registered one's, Basic's two, Pro 1's three, then Pro 2's first.
    const g: string[] = [];
    for (const s of guests) g.push(await s.work());
    const r1 = await reg.work();
    const b1 = await basic.work();
    const b2 = await basic.work();
    const p1 = [await pro1.work(), await pro1.work(), await pro1.work()];
    const q1 = await pro2.work();

    // Pro 2's first work goes before Pro 1's second: within a level accounts take turns.
    const expected = [p1[0], q1, p1[1], p1[2], b1, b2, r1, ...g];
    const owner = new Map<string, Someone>([
      ...g.map((t, i) => [t, guests[i]!] as const),
      [r1, reg],
      [b1, basic],
      [b2, basic],
      ...p1.map((t) => [t, pro1] as const),
      [q1, pro2],
    ]);
    const places: (number | undefined)[] = [];
    for (const t of expected) places.push(await owner.get(t!)!.place(t!));
    expect(places).toEqual(expected.map((_, i) => i + 1));

    await srv.ctx.services.jobs.startRunner();
    await allFinished(srv, expected.length);
    expect(await startOrder(srv)).toEqual(expected);
  }, 180_000);

  it('with 20 guest works waiting, a Pro work starts at the next free slot', async () => {
    const srv = await server();
    const guests: Someone[] = [];
    for (let i = 0; i < 20; i++) guests.push(await Someone.guest(srv, `203.0.113.${i + 1}`));
    const uids = await Promise.all(guests.map((s) => s.upload()));
    for (let i = 0; i < 20; i++) expect((await guests[i]!.start(uids[i])).body.code).toBe(200);
    const pro = await Someone.user(srv, 'pro@example.com', '203.0.113.200', 'pro');

    await srv.ctx.services.jobs.startRunner();
    // once a guest's work runs, the Pro work arrives
    const running = await until(
      () => srv.ctx.db.selectFrom('jobs').select('trans_id').where('status', '=', 'running').execute(),
      (rows) => rows.length > 0,
    );
    expect(running.length).toBe(1);
    const proWork = await pro.work();
    const place = await pro.place(proWork);
    // first in line, unless it has started already
    if (place !== undefined) expect(place).toBe(1);
    await allFinished(srv, 21);

    const proRow = await srv.ctx.db
      .selectFrom('jobs')
      .select(['created_at', 'started_at'])
      .where('trans_id', '=', proWork)
      .executeTakeFirstOrThrow();
    // Guest works that started after the Pro work was stored and before it: at most the one whose slot was
    // being handed over at that very moment (picked before the Pro work was stored).
    const between = await srv.ctx.db
      .selectFrom('jobs')
      .select('trans_id')
      .where('trans_id', '!=', proWork)
      .where('started_at', '>', proRow.created_at)
      .where('started_at', '<', proRow.started_at!)
      .execute();
    expect(between.length).toBeLessThanOrEqual(1);
    const guestsAfter = await srv.ctx.db
      .selectFrom('jobs')
      .select('trans_id')
      .where('started_at', '>', proRow.started_at!)
      .execute();
    expect(guestsAfter.length).toBeGreaterThanOrEqual(17);
  }, 300_000);
});

describe('guest works per address', () => {
  it('one address holds at most GUEST_WORKS_PER_ADDRESS guest works; another address and accounts are not held back', async () => {
    const srv = await server({ guestWorksPerAddress: 2 });
    const here = await Promise.all([1, 2, 3].map(() => Someone.guest(srv, '192.0.2.7')));
    expect((await here[0]!.start()).body.code).toBe(200);
    expect((await here[1]!.start()).body.code).toBe(200);
    const third = await here[2]!.start();
    expect(third.status).toBe(429);
    expect(third.body.data).toMatchObject({ reason: 'guestWorksPerAddress', max: 2 });
    // nothing was charged for the refused start
    expect((await here[2]!.c.form('/api/v2/license', { guest_token_v2: here[2]!.c.token })).body.data.used_num).toBe(0);
    // An IPv6 /64 is one address: two of its addresses share the count.
    const v6a = await Someone.guest(srv, '2001:db8:5:6::1');
    const v6b = await Someone.guest(srv, '2001:db8:5:6:ffff::2');
    const v6c = await Someone.guest(srv, '2001:db8:5:6:aaaa::3');
    expect((await v6a.start()).body.code).toBe(200);
    expect((await v6b.start()).body.code).toBe(200);
    expect((await v6c.start()).body.data.reason).toBe('guestWorksPerAddress');
    // another address, and a registered account on the same address, start theirs
    expect((await (await Someone.guest(srv, '192.0.2.8')).start()).body.code).toBe(200);
    expect((await (await Someone.user(srv, 'u@example.com', '192.0.2.7')).start()).body.code).toBe(200);

    // once the address's works are done, it may start again
    await srv.ctx.services.jobs.startRunner();
    await allFinished(srv, 6);
    expect((await here[2]!.start()).body.code).toBe(200);
  }, 180_000);
});
