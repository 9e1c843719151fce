/**
 * Scale-out mode, part 2: a real deployment on loopback — 2 API processes and 2 worker processes on
 * a fresh PostgreSQL database and a private redis-server — and the faults it must survive:
 * a worker killed mid-work, a work killed twice, Redis restarted (losing its data) with works queued.
 * Credits are checked in the ledger: one charge per work, at most one refund, whatever happens.
 * Skips (saying why) when PostgreSQL or Redis does not answer on the usual local ports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../server/repositories/db.js';
import type { Database } from '../../server/repositories/schema.js';
import { detectScaleout, startTcpProxy, type TcpProxy } from '../support/modes.js';
import {
  childPids,
  startCluster,
  startPrivateRedis,
  type Cluster,
  type PrivateRedis,
  type Proc,
} from '../support/modesCluster.js';
import { fixture } from './processing-helpers.js';
import { until } from './until.js';

const avail = await detectScaleout();
if (!avail.available) console.warn(`scale-out fault tests SKIPPED: ${avail.reason}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
type Envelope<T = any> = { code: number; msg: string; data: T };
const COMPRESS = JSON.stringify({ job: 'compress', config: { module: 'compress', module_params: { quality: 50 } } });

async function guest(base: string): Promise<string> {
  const b = (await (await fetch(base + '/api/v2/guest_token', { method: 'POST' })).json()) as Envelope<{
    token: string;
  }>;
  if (b.code !== 200) throw new Error(JSON.stringify(b));
  return b.data.token;
}
async function upload(base: string, token: string, bytes: Buffer, name: string): Promise<string> {
  const fd = new FormData();
  fd.set('user_token', token);
  fd.set('job', 'compress');
  fd.set('file', new Blob([bytes]), name);
  const b = (await (await fetch(base + '/web_api/v1/upload', { method: 'POST', body: fd })).json()) as Envelope<{
    data: { uid: string };
  }>;
  if (b.code !== 200) throw new Error(`upload: ${JSON.stringify(b)}`);
  return b.data.data.uid;
}
async function transform(base: string, token: string, uid: string): Promise<string> {
  const b = (await (
    await fetch(base + '/web_api/v1/transform', {
      method: 'POST',
      body: new URLSearchParams({ user_token: token, uid, jconfig: COMPRESS }),
    })
  ).json()) as Envelope<{ trans_id: string }>;
  if (b.code !== 200) throw new Error(`transform: ${JSON.stringify(b)}`);
  return b.data.trans_id;
}
async function progress(base: string, token: string, transId: string) {
  const r = await fetch(`${base}/web_api/v1/progress?${new URLSearchParams({ user_token: token, trans_id: transId })}`);
  return (await r.json()) as Envelope<{ status: 'finish' | 'fatal' | 'progress'; progress: number; error?: string }>;
}
/** Polls (bounded) until the work ends; any API process may answer. */
async function waitEnd(bases: string[], token: string, transId: string, limitMs = 90_000) {
  const end = Date.now() + limitMs;
  for (let i = 0; Date.now() < end; i++) {
    const p = await progress(bases[i % bases.length]!, token, transId);
    if (p.code !== 200) throw new Error(`progress: ${JSON.stringify(p)}`);
    if (p.data.status !== 'progress') return p.data;
    await sleep(50);
  }
  throw new Error(`work ${transId} did not end within ${limitMs} ms`);
}

/** A 1600×1600 PNG (≤ guest limits) whose palette quantisation takes seconds: time to kill its worker mid-work. */
async function slowPng(): Promise<Buffer> {
  const n = 1600;
  const raw = Buffer.alloc(n * n * 3);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const i = (y * n + x) * 3;
      raw[i] = ((x * 255) / n) | 0;
      raw[i + 1] = ((y * 255) / n) | 0;
      raw[i + 2] = (x ^ y) & 255;
    }
  return sharp(raw, { raw: { width: n, height: n, channels: 3 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

describe.skipIf(!avail.available)('scale-out: 2 API processes + 2 workers on PostgreSQL and BullMQ', () => {
  let redis: PrivateRedis;
  let pgRelay: TcpProxy;
  let cluster: Cluster;
  let db: Kysely<Database>;
  let slow: Buffer;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    // every process reaches PostgreSQL through a relay the test can cut (the service itself is never touched)
    const pg = new URL(avail.pgUrl);
    pgRelay = await startTcpProxy(pg.hostname, Number(pg.port || 5432));
    cluster = await startCluster({
      apis: 2,
      workers: 2,
      pgUrl: pgRelay.url(avail.pgUrl),
      redisUrl: redis.url,
      env: { GUEST_TOKEN_RATE_LIMIT: '10000' },
      // short locks so a dead worker's work is taken over in seconds, not the production 30 s
      workerEnv: { BULLMQ_LOCK_MS: '2000', BULLMQ_STALLED_MS: '1000', BULLMQ_RECONCILE_MS: '1000' },
    });
    // the test's own view of the database goes around the relay
    db = await openDatabase({
      dataDir: cluster.dataDir,
      databaseUrl: cluster.db.url.replace(`:${pgRelay.port}/`, `:${new URL(avail.pgUrl).port || 5432}/`),
    });
    slow = await slowPng();
  });
  afterAll(async () => {
    await db?.destroy();
    await pgRelay?.start();
    await cluster?.stop();
    await pgRelay?.close();
    await redis?.stop();
  });

  const ledger = (transId: string) =>
    db.selectFrom('credit_ledger').select(['kind', 'amount']).where('ref', '=', transId).orderBy('id').execute();
  /**
   * The refund is written just after the work is marked failed: read the ledger once it holds `rows`
   * rows (bounded poll). Nothing can come after: the ledger's unique (ref, kind) index
   * (credit_ledger_once) refuses a second refund of the same work, so there is nothing to wait for.
   */
  async function settledLedger(transId: string, rows: number) {
    return until(
      () => ledger(transId),
      (l) => l.length >= rows,
      { timeoutMs: 5000 },
    );
  }
  const row = (transId: string) =>
    db.selectFrom('jobs').selectAll().where('trans_id', '=', transId).executeTakeFirstOrThrow();
  const live = () => cluster.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
  /** Waits (bounded) until the work is claimed by a worker. */
  async function untilRunning(transId: string): Promise<void> {
    for (let i = 0; i < 600; i++) {
      if ((await row(transId)).status === 'running') return;
      await sleep(50);
    }
    throw new Error('work never started');
  }
  /** Freezes all live workers but one, so we know which process takes the next work. */
  function onlyOne(): { runner: Proc; frozen: Proc[]; thaw(): void } {
    const [runner, ...frozen] = live();
    for (const w of frozen) w.child.kill('SIGSTOP');
    return { runner: runner!, frozen, thaw: () => frozen.forEach((w) => w.child.kill('SIGCONT')) };
  }

  it('a work started on one API process is run by a worker; progress and result are readable from the other', async () => {
    const [a, b] = cluster.apiUrls as [string, string];
    const token = await guest(a);
    const uid = await upload(a, token, fixture('GreenMeadow.jpg'), 'GreenMeadow.jpg');
    const transId = await transform(b, token, uid);
    const end = await waitEnd([a, b], token, transId);
    expect(end.status).toBe('finish');
    for (const base of [a, b]) {
      const res = await fetch(
        `${base}/web_api/v1/download/?${new URLSearchParams({ user_token: token, trans_id: transId })}`,
      );
      expect(res.status).toBe(200);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1280, 1024]);
    }
    expect(await ledger(transId)).toEqual([{ kind: 'compress_charge', amount: 1 }]);
  });

  it('a worker killed mid-work: another worker finishes it, and it is charged exactly once', async () => {
    const [a, b] = cluster.apiUrls as [string, string];
    const token = await guest(a);
    const uid = await upload(a, token, slow, 'slow.png');
    const one = onlyOne();
    let transId: string;
    try {
      transId = await transform(b, token, uid);
      await untilRunning(transId);
      await one.runner.kill('SIGKILL');
    } finally {
      one.thaw();
    }
    const end = await waitEnd([a, b], token, transId);
    expect(end.status).toBe('finish');
    const r = await row(transId);
    expect(r.attempts).toBe(2);
    expect(r.result_w).toBe(1600);
    expect(await ledger(transId)).toEqual([{ kind: 'compress_charge', amount: 1 }]);
    const lic = (await (
      await fetch(a + '/api/v2/license', { method: 'POST', body: new URLSearchParams({ guest_token_v2: token }) })
    ).json()) as Envelope;
    expect(lic.data.compress_used).toBe(1);
    await cluster.startWorker();
  });

  it('a work whose worker is killed on every attempt ends failed, refunded once', async () => {
    const [a] = cluster.apiUrls as [string];
    const token = await guest(a);
    const uid = await upload(a, token, slow, 'slow.png');
    let transId = '';
    for (let attempt = 1; attempt <= 2; attempt++) {
      const one = onlyOne();
      try {
        if (attempt === 1) transId = await transform(a, token, uid);
        // the work is (re)claimed by the one unfrozen worker
        for (let i = 0; i < 600; i++) {
          const r = await row(transId);
          if (r.status === 'running' && r.attempts === attempt) break;
          await sleep(50);
        }
        expect((await row(transId)).attempts).toBe(attempt);
        await one.runner.kill('SIGKILL');
      } finally {
        one.thaw();
      }
      await cluster.startWorker();
    }
    const end = await waitEnd([a], token, transId);
    expect(end.status).toBe('fatal');
    expect(await settledLedger(transId, 2)).toEqual([
      { kind: 'compress_charge', amount: 1 },
      { kind: 'compress_refund', amount: 1 },
    ]);
    const lic = (await (
      await fetch(a + '/api/v2/license', { method: 'POST', body: new URLSearchParams({ guest_token_v2: token }) })
    ).json()) as Envelope;
    expect(lic.data.compress_used).toBe(0);
  });

  it('Redis restarted (its data lost) with works queued, one started while it was down: every work completes, charged once', async () => {
    const [a, b] = cluster.apiUrls as [string, string];
    // one guest per work: a guest may run one work at a time
    const works: { token: string; uid: string; id?: string }[] = [];
    for (const f of ['rocket.jpg', 'chelsea.png', 'camera.png']) {
      const token = await guest(a);
      works.push({ token, uid: await upload(a, token, fixture(f), f) });
    }
    const workers = live();
    for (const w of workers) w.child.kill('SIGSTOP');
    try {
      works[0]!.id = await transform(a, works[0]!.token, works[0]!.uid);
      await redis.stop();
      // started while Redis is down: still answered (the work waits in the database), delivered once Redis is back
      works[1]!.id = await transform(b, works[1]!.token, works[1]!.uid);
      await redis.start();
      works[2]!.id = await transform(b, works[2]!.token, works[2]!.uid);
    } finally {
      for (const w of workers) w.child.kill('SIGCONT');
    }
    for (const w of works) {
      expect((await waitEnd([a, b], w.token, w.id!)).status).toBe('finish');
      expect(await ledger(w.id!)).toEqual([{ kind: 'compress_charge', amount: 1 }]);
    }
  });

  it('PostgreSQL briefly unreachable: API processes answer 503, then serve again; uploads and a running work are not lost', async () => {
    const [a, b] = cluster.apiUrls as [string, string];
    const token = await guest(a);
    const kept = await upload(b, token, fixture('rocket.jpg'), 'rocket.jpg');
    const slowUid = await upload(a, token, slow, 'slow.png');
    const transId = await transform(a, token, slowUid);
    await untilRunning(transId);
    await pgRelay.stop();
    try {
      for (const base of [a, b]) {
        const r = await fetch(base + '/api/v2/license', {
          method: 'POST',
          body: new URLSearchParams({ guest_token_v2: token }),
        });
        expect(r.status).toBe(503);
        expect(await r.json()).toEqual({
          code: 503,
          msg: 'Service temporarily unavailable',
          data: { reason: 'serviceUnavailable' },
        });
        const fd = new FormData();
        fd.set('user_token', token);
        fd.set('file', new Blob([fixture('chelsea.png')]), 'chelsea.png');
        expect((await fetch(base + '/web_api/v1/upload', { method: 'POST', body: fd })).status).toBe(503);
        // progress polls arriving together share one statement (pollBatch.ts): each gets the 503 it would get alone
        const polls = await Promise.all(
          Array.from({ length: 4 }, () =>
            fetch(`${base}/web_api/v1/progress?${new URLSearchParams({ user_token: token, trans_id: transId })}`),
          ),
        );
        expect(await Promise.all(polls.map(async (r) => [r.status, await r.json()]))).toEqual(
          polls.map(() => [
            503,
            { code: 503, msg: 'Service temporarily unavailable', data: { reason: 'serviceUnavailable' } },
          ]),
        );
      }
    } finally {
      await pgRelay.start();
    }
    // bounded retry, like a client honouring Retry-After
    let again = 0;
    for (let i = 0; i < 200 && again !== 200; i++) {
      const r = await fetch(b + '/api/v2/license', {
        method: 'POST',
        body: new URLSearchParams({ guest_token_v2: token }),
      });
      again = r.status;
      if (again !== 200) await sleep(50);
    }
    expect(again).toBe(200);
    const retried = await upload(b, token, fixture('chelsea.png'), 'chelsea.png');
    const list = (await (
      await fetch(a + '/web_api/v1/upload/list', { method: 'POST', body: new URLSearchParams({ user_token: token }) })
    ).json()) as Envelope;
    expect(list.data.datas.map((d: { uid: string }) => d.uid).sort()).toEqual([kept, slowUid, retried].sort());
    expect((await waitEnd([a, b], token, transId)).status).toBe('finish');
    expect(await ledger(transId)).toEqual([{ kind: 'compress_charge', amount: 1 }]);
    for (const p of cluster.apis) expect(p.child.exitCode, p.log()).toBeNull();
  });

  it('the time limit is a process kill: the sandbox running the work is SIGKILLed, the work fails with timeout, refunded once', async () => {
    const [a] = cluster.apiUrls as [string];
    const token = await guest(a);
    const uid = await upload(a, token, slow, 'slow.png');
    const others = live();
    for (const w of others) w.child.kill('SIGSTOP');
    let timed: Proc | undefined;
    try {
      timed = await cluster.startWorker({ JOB_TIMEOUT_MS: '1500' });
      const transId = await transform(a, token, uid);
      await untilRunning(transId);
      // slots start with the first work: one sandbox process now runs it
      let sandboxes: number[] = [];
      for (let i = 0; i < 100 && sandboxes.length === 0; i++) {
        sandboxes = childPids(timed.pid);
        if (!sandboxes.length) await sleep(20);
      }
      expect(sandboxes.length).toBe(1);
      expect(await waitEnd([a], token, transId)).toMatchObject({ status: 'fatal', error: 'timeout' });
      expect(await settledLedger(transId, 2)).toEqual([
        { kind: 'compress_charge', amount: 1 },
        { kind: 'compress_refund', amount: 1 },
      ]);
      const gone = (pid: number) => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      };
      // SIGKILLed at the time limit: wait (bounded) for the kernel to report it gone.
      expect(
        await until(
          () => gone(sandboxes[0]!),
          (g) => g,
          { timeoutMs: 10_000 },
        ),
      ).toBe(true);
      // the worker process itself lives on and its slot gets a fresh sandbox
      expect(timed.child.exitCode).toBeNull();
      const fresh = await until(
        () => childPids(timed!.pid).filter((p) => p !== sandboxes[0]),
        (p) => p.length > 0,
        { timeoutMs: 10_000 },
      );
      expect(fresh.length).toBe(1);
    } finally {
      for (const w of others) w.child.kill('SIGCONT');
      await timed?.kill('SIGTERM');
    }
  });

  it('no process crashed along the way (API processes and the workers not killed on purpose)', async () => {
    for (const p of cluster.apis) expect(p.child.exitCode, p.log()).toBeNull();
    expect(live().length).toBeGreaterThanOrEqual(2);
  });
});
