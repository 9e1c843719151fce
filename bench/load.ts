/**
 * `npm run bench` section "load": the scale-out deployment on loopback (2 API + 2 worker processes,
 * PostgreSQL + BullMQ) under the client-flow load of scripts/loadtest.ts, autocannon on progress polls
 * against a bare route of the same processes, 200 clients polling with idle then busy workers, then the hostile-input run of scripts/hostile.ts twice (RSS after each pass shows
 * whether memory stays bounded). Bounded to about 2 minutes; reports "skipped" without the services.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { detectScaleout } from '../tests/support/modes.js';
import { runHostile } from '../scripts/hostile.js';
import { runLoad, startLoadCluster, type Envelope } from '../scripts/loadtest.js';
import type { Cluster } from '../tests/support/modesCluster.js';
import { findOwnedProgress } from '../server/repositories/jobRepository.js';
import { AccountRepository } from '../server/repositories/accountRepository.js';
import { openPostgres } from '../server/repositories/postgres.js';
import { TokenRepository } from '../server/repositories/tokenRepository.js';
import { secretHash } from '../server/services/tokens.js';
import type { BenchRow } from './run.js';

interface AutocannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx?: number;
}
// autocannon ships no type declarations; this is the part used here.
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: {
  url: string;
  connections: number;
  duration: number;
  pipelining: number;
}) => Promise<AutocannonResult>;

const CLIENTS = 200;
/** progress polling under processing load: each client polls every POLL_MS (jittered) for POLL_S */
const POLL_MS = 500;
const POLL_S = 10;
/** enlarge x2 works of about 1 MP that keep both worker processes busy while the clients poll */
const HEAVY_WORKS = 8;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]! : NaN;
}

/** CLIENTS clients polling the given URLs (round robin) for POLL_S; latencies, errors and this process's event-loop delay. */
async function pollPhase(urls: string[]) {
  const lat: number[] = [];
  let errors = 0;
  const eld = monitorEventLoopDelay({ resolution: 10 });
  eld.enable();
  const end = Date.now() + POLL_S * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      await new Promise((r) => setTimeout(r, Math.random() * POLL_MS));
      while (Date.now() < end) {
        const t0 = performance.now();
        try {
          const r = await fetch(urls[i % urls.length]!);
          const body = (await r.json()) as Envelope<unknown>;
          if (r.status !== 200 || body.code !== 200) errors++;
          else lat.push(performance.now() - t0);
        } catch {
          errors++;
        }
        await new Promise((r) => setTimeout(r, POLL_MS * (0.5 + Math.random())));
      }
    }),
  );
  eld.disable();
  return {
    n: lat.length,
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
    errors,
    eldP99: eld.percentile(99) / 1e6,
  };
}
const HOSTILE = 1000;

/** What bench/probe.mjs reports from one API process for the time between two marks. */
interface ProbeReport {
  pid: number;
  wallMs: number;
  eldP50: number;
  eldP99: number;
  eldMax: number;
  polls: number;
  srvP50: number | null;
  srvP99: number | null;
  cpuMs: number;
  runqWaitMs: number;
}

/** Starts the cluster with bench/probe.mjs preloaded into its API processes (the workers and slots ignore it). */
async function startProbedCluster(): Promise<Cluster> {
  const saved = { opts: process.env.NODE_OPTIONS, probe: process.env.PIXMILL_BENCH_PROBE };
  process.env.NODE_OPTIONS = `${saved.opts ?? ''} --import ${path.join(import.meta.dirname, 'probe.mjs')}`.trim();
  process.env.PIXMILL_BENCH_PROBE = '1';
  try {
    return await startLoadCluster(2, 2);
  } finally {
    if (saved.opts === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = saved.opts;
    if (saved.probe === undefined) delete process.env.PIXMILL_BENCH_PROBE;
    else process.env.PIXMILL_BENCH_PROBE = saved.probe;
  }
}

/** Each API process's probe lines as they arrive; mark() asks every one for its report since the last mark. */
function probeReader(c: Cluster) {
  const lines: ProbeReport[][] = c.apis.map(() => []);
  c.apis.forEach((p, i) =>
    p.child.stderr?.on('data', (b: Buffer) => {
      for (const l of b.toString().split('\n'))
        if (l.startsWith('PIXMILL_PROBE ')) lines[i]!.push(JSON.parse(l.slice('PIXMILL_PROBE '.length)) as ProbeReport);
    }),
  );
  return async function mark(): Promise<ProbeReport[]> {
    const before = lines.map((l) => l.length);
    for (const p of c.apis) p.child.kill('SIGUSR2');
    const end = Date.now() + 5000;
    while (lines.some((l, i) => l.length === before[i]) && Date.now() < end)
      await new Promise((r) => setTimeout(r, 20));
    return lines
      .map((l, i) => (l.length > before[i]! ? l[l.length - 1]! : null))
      .filter((r): r is ProbeReport => r !== null);
  };
}

/** Time this process's threads spent runnable but waiting for a core (Linux schedstat), ms. */
function ownRunqWaitMs(): number {
  let wait = 0;
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      wait += Number(fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[1]);
    } catch {
      // thread ended
    }
  }
  return wait / 1e6;
}

/**
 * What one progress poll asks PostgreSQL, from this process against the cluster's database: the one
 * prepared join (token + account + work) the route uses, and as the baseline the three separate
 * reads it replaced (token, account, work), interleaved in rounds. Wall and this process's CPU per poll. The
 * polls go one at a time, so each is a batch of one (server/repositories/pollBatch.ts).
 */
async function progressReadCost(c: Cluster, token: string, transId: string) {
  const db = await openPostgres(c.db.url);
  try {
    const tokens = new TokenRepository(db);
    const accounts = new AccountRepository(db);
    const hash = secretHash(token);
    const N = 1000;
    const joined = { wall: 0, cpu: 0 };
    const three = { wall: 0, cpu: 0 };
    const timed = async (acc: { wall: number; cpu: number }, fn: () => Promise<unknown>) => {
      const t = performance.now();
      const cpu = process.cpuUsage();
      for (let i = 0; i < N; i++) await fn();
      const used = process.cpuUsage(cpu);
      acc.wall += performance.now() - t;
      acc.cpu += (used.user + used.system) / 1000;
    };
    for (let round = 0; round < 3; round++) {
      await timed(joined, async () => {
        if (!(await tokens.findWithAccount(hash, transId))?.job) throw new Error('joined read found no work');
      });
      await timed(three, async () => {
        const t = await tokens.find(hash);
        const a = await accounts.byId(t!.bound_account_id ?? t!.account_id);
        if (!(await findOwnedProgress(db, a!.id, transId))) throw new Error('separate reads found no work');
      });
    }
    const per = (x: { wall: number; cpu: number }) => ({ wall: x.wall / (3 * N), cpu: x.cpu / (3 * N) });
    return { joined: per(joined), three: per(three), n: 3 * N };
  } finally {
    await db.destroy();
  }
}

/** The API processes' figures of one phase, combined: worst percentile, summed counts and times. */
function apiFigures(r: ProbeReport[]) {
  const polls = r.reduce((a, x) => a + x.polls, 0);
  const wait = r.reduce((a, x) => a + x.runqWaitMs, 0);
  return {
    srvP50: Math.max(...r.map((x) => x.srvP50 ?? NaN)),
    srvP99: Math.max(...r.map((x) => x.srvP99 ?? NaN)),
    eldP99: Math.max(...r.map((x) => x.eldP99)),
    eldMax: Math.max(...r.map((x) => x.eldMax)),
    cpuShare: r.reduce((a, x) => a + x.cpuMs / x.wallMs, 0),
    waitPerPollMs: polls ? wait / polls : NaN,
    waitShare: r.reduce((a, x) => a + x.runqWaitMs / x.wallMs, 0),
  };
}

const sum = (o: Record<string, number>, prefix: string) =>
  Math.round(
    Object.entries(o)
      .filter(([k]) => k.startsWith(prefix))
      .reduce((a, [, v]) => a + v, 0),
  );

/** autocannon on one progress URL per API process, at once, for a few seconds. */
async function pollSaturation(urls: string[], seconds: number) {
  const results = await Promise.all(
    urls.map((url) => autocannon({ url, connections: 25, duration: seconds, pipelining: 1 })),
  );
  const lat = results.map((r) => r.latency);
  return {
    requests: results.reduce((a, r) => a + r.requests.total, 0),
    rps: Math.round(results.reduce((a, r) => a + r.requests.average, 0)),
    p50: Math.max(...lat.map((l) => l.p50)),
    p99: Math.max(...lat.map((l) => l.p99)),
    errors: results.reduce((a, r) => a + r.errors + r.timeouts + (r.non2xx ?? 0), 0),
  };
}

/**
 * A guest's compress work to poll: uploaded and started through the first API process, and its
 * progress URL on every API process (the work is shared through the database).
 */
export async function pollWork(apiUrls: string[]): Promise<{ token: string; transId: string; progressUrls: string[] }> {
  const base = apiUrls[0]!;
  const g = (await (await fetch(base + '/api/v2/guest_token', { method: 'POST' })).json()) as Envelope<{
    token: string;
  }>;
  const token = g.data.token;
  const fd = new FormData();
  fd.set('user_token', token);
  fd.set('job', 'compress');
  fd.set(
    'file',
    new Blob([
      await sharp({ create: { width: 64, height: 64, channels: 3, background: '#406080' } })
        .jpeg()
        .toBuffer(),
    ]),
    'poll.jpg',
  );
  const up = (await (await fetch(base + '/web_api/v1/upload', { method: 'POST', body: fd })).json()) as Envelope<{
    data: { uid: string };
  }>;
  const jconfig = JSON.stringify({ job: 'compress', config: { module: 'compress', module_params: { quality: 60 } } });
  const tr = (await (
    await fetch(base + '/web_api/v1/transform', {
      method: 'POST',
      body: new URLSearchParams({ user_token: token, uid: up.data.data.uid, jconfig }),
    })
  ).json()) as Envelope<{ trans_id: string }>;
  const q = new URLSearchParams({ user_token: token, trans_id: tr.data.trans_id });
  return { token, transId: tr.data.trans_id, progressUrls: apiUrls.map((u) => `${u}/web_api/v1/progress?${q}`) };
}

/**
 * Progress polls against the bare route of the same processes, in interleaved rounds (progress first,
 * then bare first, …) after a warm-up: the load of a shared machine swings within seconds, so one
 * 6-second sample of each side can land on different weather. The best of each side is kept (the least
 * disturbed run), with every round's ratio for the note.
 */
export async function saturationPair(progress: string[], bare: string[], rounds = 3, seconds = 6) {
  await pollSaturation(progress, 2); // warm-up: JIT, pool connections, prepared statements
  let sat: Awaited<ReturnType<typeof pollSaturation>> | undefined, base: typeof sat;
  const ratios: number[] = [];
  const errors = { progress: 0, bare: 0 };
  for (let r = 0; r < rounds; r++) {
    const p = r % 2 ? undefined : await pollSaturation(progress, seconds);
    const b = await pollSaturation(bare, seconds);
    const p2 = p ?? (await pollSaturation(progress, seconds));
    ratios.push(p2.rps / b.rps);
    errors.progress += p2.errors;
    errors.bare += b.errors;
    if (!sat || p2.rps > sat.rps) sat = p2;
    if (!base || b.rps > base.rps) base = b;
  }
  return { sat: sat!, bare: base!, ratios, errors };
}

export async function benchLoad(): Promise<BenchRow[]> {
  const avail = await detectScaleout();
  if (!avail.available) throw new Error(`scale-out services not answering: ${avail.reason}`);
  const c = await startProbedCluster();
  const mark = probeReader(c);
  try {
    const load = await runLoad(c, { clients: CLIENTS, pollMs: 2000, limitMs: 60_000 });

    // one finished work to poll from every API process
    const { token, transId, progressUrls } = await pollWork(c.apiUrls);
    // autocannon on progress, then on the bare /api/health route of the same processes (same plugins and hooks, no work): the ratio is what progress costs
    const reads = await progressReadCost(c, token, transId);
    const {
      sat,
      bare,
      ratios,
      errors: satErrors,
    } = await saturationPair(
      progressUrls,
      c.apiUrls.map((u) => `${u}/api/health`),
    );

    // progress under processing load: the same 200 clients polling with idle workers (baseline) and with both workers running enlarge
    await mark();
    let genWait = ownRunqWaitMs();
    const idle = await pollPhase(progressUrls);
    const idleApi = apiFigures(await mark());
    const idleGenWait = ownRunqWaitMs() - genWait;
    const heavyImg = await sharp({
      create: {
        width: 1152,
        height: 864,
        channels: 3,
        background: '#7a8090',
        noise: { type: 'gaussian', mean: 120, sigma: 40 },
      },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    const enlarge = JSON.stringify({ job: 'enlarge', config: { module: 'enlarge', module_params: { scale: 2 } } });
    const heavyUrls: string[] = [];
    for (let i = 0; i < HEAVY_WORKS; i++) {
      const api = c.apiUrls[i % c.apiUrls.length]!;
      const gt = (await (await fetch(api + '/api/v2/guest_token', { method: 'POST' })).json()) as Envelope<{
        token: string;
      }>;
      const hf = new FormData();
      hf.set('user_token', gt.data.token);
      hf.set('job', 'enlarge');
      hf.set('file', new Blob([heavyImg]), `heavy-${i}.jpg`);
      const hu = (await (await fetch(api + '/web_api/v1/upload', { method: 'POST', body: hf })).json()) as Envelope<{
        data: { uid: string };
      }>;
      const ht = (await (
        await fetch(api + '/web_api/v1/transform', {
          method: 'POST',
          body: new URLSearchParams({ user_token: gt.data.token, uid: hu.data.data.uid, jconfig: enlarge }),
        })
      ).json()) as Envelope<{ trans_id: string }>;
      if (ht.code !== 200) throw new Error(`heavy work refused: ${JSON.stringify(ht)}`);
      heavyUrls.push(
        `${api}/web_api/v1/progress?${new URLSearchParams({ user_token: gt.data.token, trans_id: ht.data.trans_id })}`,
      );
    }
    await mark();
    genWait = ownRunqWaitMs();
    const busy = await pollPhase([...progressUrls, ...heavyUrls]);
    const busyApi = apiFigures(await mark());
    const busyGenWait = ownRunqWaitMs() - genWait;
    const heavyState = await Promise.all(
      heavyUrls.map(async (u) => ((await (await fetch(u)).json()) as Envelope<{ status: string }>).data.status),
    );
    const stillRunning = heavyState.filter((st) => st === 'progress').length;

    const hostile1 = await runHostile(c, { count: HOSTILE, concurrency: 16, limitMs: 40_000 });
    const hostile2 = await runHostile(c, { count: HOSTILE, concurrency: 16, limitMs: 40_000 });
    const l = load.latencyMs;
    const rows: BenchRow[] = [
      {
        name: 'load: simulated clients',
        value: load.clients,
        unit: 'clients',
        note: '2 API + 2 worker processes, PostgreSQL + BullMQ, loopback',
      },
      { name: 'load: requests', value: load.requests, unit: 'req', note: `${load.durationS} s` },
      {
        name: 'load: errors',
        value: load.errors,
        unit: 'errors',
        note: load.errorSamples.slice(0, 2).join(' ; ') || 'goal 0',
        key: true,
      },
      {
        name: 'load: works completed',
        value: load.worksCompleted,
        unit: 'works',
        note: `failed ${load.worksFailed}, unfinished ${load.worksUnfinished}, results verified ${load.resultsVerified}`,
      },
      {
        name: 'load: upload p50',
        value: l.upload?.p50 ?? NaN,
        unit: 'ms',
        note: `${CLIENTS} uploads at once`,
        key: true,
      },
      { name: 'load: upload p99', value: l.upload?.p99 ?? NaN, unit: 'ms' },
      {
        name: 'load: progress poll p50',
        value: l.progress?.p50 ?? NaN,
        unit: 'ms',
        note: `${l.progress?.n ?? 0} polls every 2 s`,
      },
      {
        name: 'load: progress poll p99',
        value: l.progress?.p99 ?? NaN,
        unit: 'ms',
        note: 'polls overlap the 200-upload burst',
        key: true,
      },
      { name: 'load: transform p50', value: l.transform?.p50 ?? NaN, unit: 'ms' },
      { name: 'load: guest_token p50', value: l.guest_token?.p50 ?? NaN, unit: 'ms' },
      {
        name: 'load: RSS API processes before/after',
        value: sum(load.rssAfterMiB, 'api'),
        unit: 'MiB',
        note: `before ${sum(load.rssBeforeMiB, 'api')} MiB`,
      },
      {
        name: 'load: RSS workers (+sandboxes) before/after',
        value: sum(load.rssAfterMiB, 'worker'),
        unit: 'MiB',
        note: `before ${sum(load.rssBeforeMiB, 'worker')} MiB`,
      },
      {
        name: 'progress read: one prepared join',
        value: reads.joined.wall,
        unit: 'ms',
        note: `token + account + work in one round trip (on PostgreSQL the batched statement, here one poll per batch), ${reads.n} reads; client CPU ${reads.joined.cpu.toFixed(3)} ms per read`,
        key: true,
      },
      {
        name: 'progress read: baseline three reads',
        value: reads.three.wall,
        unit: 'ms',
        note: `token, account, work as separate queries (before), same run, interleaved; client CPU ${reads.three.cpu.toFixed(3)} ms per read`,
      },
      {
        name: 'autocannon: progress polls',
        value: sat.rps,
        unit: 'req/s',
        note: `best of ${ratios.length} rounds interleaved with the bare route, ${sat.requests} requests, 2×25 connections, 6 s; errors in all rounds ${satErrors.progress}`,
      },
      { name: 'autocannon: progress poll p50', value: sat.p50, unit: 'ms' },
      { name: 'autocannon: progress poll p99', value: sat.p99, unit: 'ms' },
      {
        name: 'autocannon: bare /api/health (baseline)',
        value: bare.rps,
        unit: 'req/s',
        note: `same processes, same run, best of ${ratios.length} rounds, p99 ${bare.p99} ms, errors in all rounds ${satErrors.bare}`,
      },
      {
        name: 'autocannon: progress / bare route throughput',
        value: sat.rps / bare.rps,
        unit: 'ratio',
        note: `goal ≥ 0.5; best of each side; round by round ${ratios.map((r) => r.toFixed(2)).join(', ')}`,
        key: true,
      },
      {
        name: 'poll, idle workers: p50',
        value: idle.p50,
        unit: 'ms',
        note: `baseline: ${CLIENTS} clients polling every ~${POLL_MS} ms for ${POLL_S} s, ${idle.n} polls, errors ${idle.errors}`,
      },
      { name: 'poll, idle workers: p99', value: idle.p99, unit: 'ms', key: true },
      {
        name: 'poll under processing load: p50',
        value: busy.p50,
        unit: 'ms',
        note: `${CLIENTS} clients, ${busy.n} polls while ${HEAVY_WORKS} enlarge x2 works (1 MP) ran on both workers; ${stillRunning} still running at the end`,
      },
      { name: 'poll under processing load: p99', value: busy.p99, unit: 'ms', note: 'goal ≤ 50', key: true },
      { name: 'poll under processing load: errors', value: busy.errors, unit: 'errors', note: 'goal 0', key: true },
      { name: 'poll under load / idle p99', value: busy.p99 / idle.p99, unit: 'ratio' },
      {
        name: 'load generator event-loop delay p99',
        value: busy.eldP99,
        unit: 'ms',
        note: `this process, under load (idle phase ${idle.eldP99.toFixed(1)} ms): high means the figures above include client-side waiting`,
      },
      {
        name: 'load generator waiting for a core',
        value: busyGenWait / POLL_S / 10,
        unit: '%',
        note: `of the ${POLL_S} s under load (idle phase ${(idleGenWait / POLL_S / 10).toFixed(1)} %): runnable but not running (schedstat)`,
      },
      {
        name: 'poll under processing load: API server-side p99',
        value: busyApi.srvP99,
        unit: 'ms',
        note: `request parsed → response sent in the API processes (idle workers: ${idleApi.srvP99.toFixed(1)} ms; p50 ${busyApi.srvP50.toFixed(1)} / idle ${idleApi.srvP50.toFixed(1)} ms)`,
        key: true,
      },
      {
        name: 'API event-loop delay p99 under processing load',
        value: busyApi.eldP99,
        unit: 'ms',
        note: `worst API process; max ${busyApi.eldMax.toFixed(0)} ms (idle workers: p99 ${idleApi.eldP99.toFixed(1)}, max ${idleApi.eldMax.toFixed(0)} ms)`,
      },
      {
        name: 'API waiting for a core, per poll',
        value: busyApi.waitPerPollMs,
        unit: 'ms',
        note: `run-queue wait of the API processes' threads (schedstat) / polls, under load (idle workers: ${idleApi.waitPerPollMs.toFixed(2)} ms); API CPU ${(busyApi.cpuShare * 100).toFixed(0)} % of a core (idle ${(idleApi.cpuShare * 100).toFixed(0)} %), waiting ${(busyApi.waitShare * 100).toFixed(0)} % (idle ${(idleApi.waitShare * 100).toFixed(0)} %)`,
      },
      {
        name: 'hostile: inputs answered',
        value: hostile1.answered + hostile2.answered,
        unit: 'inputs',
        note: `of ${hostile1.inputs + hostile2.inputs}, two passes`,
      },
      {
        name: 'hostile: clear answers',
        value: hostile1.clear + hostile2.clear,
        unit: 'inputs',
        note: 'HTTP < 500 with {code, msg}',
      },
      {
        name: 'hostile: unclear answers',
        value: hostile1.unclear + hostile2.unclear,
        unit: 'inputs',
        note: [...hostile1.unclearSamples, ...hostile2.unclearSamples].slice(0, 2).join(' ; ') || 'goal 0',
      },
      {
        name: 'hostile: accepted though malformed',
        value: hostile1.acceptedButShouldRefuse + hostile2.acceptedButShouldRefuse,
        unit: 'inputs',
        note: 'goal 0',
      },
      {
        name: 'hostile: server crashes',
        value: hostile1.processesCrashed.length + hostile2.processesCrashed.length,
        unit: 'processes',
        note: hostile2.healthyAfter ? 'health OK after' : 'health FAILED after',
      },
      { name: 'hostile: RSS API before pass 1', value: sum(hostile1.rssBeforeMiB, 'api'), unit: 'MiB' },
      { name: 'hostile: RSS API after pass 1', value: sum(hostile1.rssAfterMiB, 'api'), unit: 'MiB' },
      {
        name: 'hostile: RSS API after pass 2',
        value: sum(hostile2.rssAfterMiB, 'api'),
        unit: 'MiB',
        note: 'bounded if close to pass 1',
      },
    ];
    return rows;
  } finally {
    await c.stop();
  }
}
