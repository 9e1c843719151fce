/**
 * `npm run loadtest`: load on a real scale-out deployment, loopback only, bounded in count and time.
 * Starts 2 API processes + 2 worker processes (fresh PostgreSQL database, private BullMQ prefix,
 * shared DATA_DIR) and runs N simulated clients at once, each like the PWA: guest token → upload a
 * small image → start a compress work → poll progress every 2 s → download the result. Requests
 * go round-robin over the API processes, so progress is read from processes that did not start
 * the work. Reports requests, errors, p50/p99 latencies per call and works completed, and RSS.
 *
 * Then the fairness section (scripts/loadFairness.ts): 20 guests' works queued, then a Pro work, which
 * must start at the next free slot while every guest work still finishes.
 *
 * Options (env): LOAD_CLIENTS (200), LOAD_POLL_MS (2000), LOAD_LIMIT_S (150), LOAD_APIS (2), LOAD_WORKERS (2),
 * LOAD_FAIRNESS (1; 0 skips the fairness section).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { startCluster, type Cluster } from '../tests/support/modesCluster.js';
import { detectScaleout } from '../tests/support/modes.js';
import { runFairness, type FairnessReport } from './loadFairness.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** Resident memory (bytes) of a process and all its descendants (workers' sandbox processes). */
export function rssTree(pid: number): number {
  const kids = new Map<number, number[]>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {
      // process ended while we looked
    }
  }
  let total = 0;
  const walk = (p: number) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'));
      total += m ? Number(m[1]) * 1024 : 0;
    } catch {
      return;
    }
    for (const k of kids.get(p) ?? []) walk(k);
  };
  walk(pid);
  return total;
}

export type Envelope<T = any> = { code: number; msg: string; data: T };

/** Round-robin over the API processes, with per-call latency and error accounting. */
export class Harness {
  private next = 0;
  readonly latency = new Map<string, number[]>();
  readonly errors = new Map<string, number>();
  readonly errorSamples: string[] = [];
  requests = 0;

  constructor(readonly bases: string[]) {}

  base(): string {
    return this.bases[this.next++ % this.bases.length]!;
  }

  private note(kind: string, ms: number) {
    this.requests++;
    const l = this.latency.get(kind) ?? [];
    l.push(ms);
    this.latency.set(kind, l);
  }

  error(kind: string, detail: string) {
    this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
    if (this.errorSamples.length < 20) this.errorSamples.push(`${kind}: ${detail.slice(0, 200)}`);
  }

  /** One API call answering the JSON envelope; returns null (and counts an error) unless code 200. */
  async call<T>(kind: string, path: string, init: RequestInit = {}): Promise<Envelope<T> | null> {
    const t = performance.now();
    try {
      const res = await fetch(this.base() + path, { ...init, signal: AbortSignal.timeout(30_000) });
      const text = await res.text();
      this.note(kind, performance.now() - t);
      let body: Envelope<T>;
      try {
        body = JSON.parse(text) as Envelope<T>;
      } catch {
        this.error(kind, `HTTP ${res.status} non-JSON ${text.slice(0, 80)}`);
        return null;
      }
      if (res.status !== 200 || body.code !== 200) {
        this.error(kind, `HTTP ${res.status} ${JSON.stringify(body).slice(0, 160)}`);
        return null;
      }
      return body;
    } catch (e) {
      this.note(kind, performance.now() - t);
      this.error(kind, e instanceof Error ? e.message : String(e));
      return null;
    }
  }

  async bytes(kind: string, path: string): Promise<Buffer | null> {
    const t = performance.now();
    try {
      const res = await fetch(this.base() + path, { signal: AbortSignal.timeout(30_000) });
      const buf = Buffer.from(await res.arrayBuffer());
      this.note(kind, performance.now() - t);
      if (res.status !== 200) {
        this.error(kind, `HTTP ${res.status} ${buf.toString('utf8', 0, 160)}`);
        return null;
      }
      return buf;
    } catch (e) {
      this.note(kind, performance.now() - t);
      this.error(kind, e instanceof Error ? e.message : String(e));
      return null;
    }
  }
}

export interface LoadOptions {
  clients: number;
  pollMs: number;
  limitMs: number;
}

export interface LoadReport {
  clients: number;
  durationS: number;
  requests: number;
  errors: number;
  errorsByCall: Record<string, number>;
  errorSamples: string[];
  latencyMs: Record<string, { n: number; p50: number; p99: number }>;
  worksCompleted: number;
  worksFailed: number;
  worksUnfinished: number;
  resultsVerified: number;
  rssBeforeMiB: Record<string, number>;
  rssAfterMiB: Record<string, number>;
}

const COMPRESS = JSON.stringify({ job: 'compress', config: { module: 'compress', module_params: { quality: 60 } } });
const MiB = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;

export function rssOfCluster(c: Pick<Cluster, 'apis' | 'workers'>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of [...c.apis, ...c.workers])
    if (p.child.exitCode === null && p.child.signalCode === null) out[p.name] = MiB(rssTree(p.pid));
  return out;
}

/** A small distinct JPEG per client (≈ 10–20 kB), so every upload is real work for the server. */
async function smallImage(i: number): Promise<Buffer> {
  const w = 320;
  const h = 240;
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 3;
      raw[o] = (x + i * 7) & 255;
      raw[o + 1] = (y * 2 + i) & 255;
      raw[o + 2] = ((x ^ y) + i * 13) & 255;
    }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** A documentation-range address per simulated client (198.18.0.0/15 holds 131 072 of them). */
export function clientAddress(i: number): string {
  return `198.${18 + ((i >> 16) & 1)}.${(i >> 8) & 255}.${i & 255}`;
}

/** Runs the client flow against an already running deployment. */
export async function runLoad(c: Cluster, opts: LoadOptions): Promise<LoadReport> {
  const h = new Harness(c.apiUrls);
  const rssBefore = rssOfCluster(c);
  const images = await Promise.all(Array.from({ length: opts.clients }, (_, i) => smallImage(i)));
  const deadline = Date.now() + opts.limitMs;
  let completed = 0;
  let failed = 0;
  let unfinished = 0;
  let verified = 0;
  const started = performance.now();

  const client = async (i: number) => {
    // each simulated person from an address of their own (the cluster trusts X-Forwarded-For from loopback)
    const headers = { 'x-forwarded-for': clientAddress(i) };
    const g = await h.call<{ token: string }>('guest_token', '/api/v2/guest_token', { method: 'POST', headers });
    if (!g) return void unfinished++;
    const token = g.data.token;
    const fd = new FormData();
    fd.set('user_token', token);
    fd.set('job', 'compress');
    fd.set('file', new Blob([images[i]!]), `load-${i}.jpg`);
    const up = await h.call<{ data: { uid: string } }>('upload', '/web_api/v1/upload', {
      method: 'POST',
      body: fd,
      headers,
    });
    if (!up) return void unfinished++;
    const tr = await h.call<{ trans_id: string }>('transform', '/web_api/v1/transform', {
      method: 'POST',
      body: new URLSearchParams({ user_token: token, uid: up.data.data.uid, jconfig: COMPRESS }),
      headers,
    });
    if (!tr) return void unfinished++;
    const q = new URLSearchParams({ user_token: token, trans_id: tr.data.trans_id });
    while (Date.now() < deadline) {
      await sleep(opts.pollMs);
      const p = await h.call<{ status: string }>('progress', `/web_api/v1/progress?${q}`);
      if (!p || p.data.status === 'progress') continue;
      if (p.data.status === 'finish') {
        completed++;
        const out = await h.bytes('download', `/web_api/v1/download/?${q}`);
        if (out) {
          const meta = await sharp(out)
            .metadata()
            .catch(() => null);
          if (meta?.width === 320 && meta.height === 240) verified++;
          else h.error('download', 'result is not the 320×240 image');
        }
      } else failed++;
      return;
    }
    unfinished++;
  };
  await Promise.all(Array.from({ length: opts.clients }, (_, i) => client(i)));

  const latencyMs: LoadReport['latencyMs'] = {};
  for (const [k, v] of h.latency)
    latencyMs[k] = {
      n: v.length,
      p50: Math.round(percentile(v, 50) * 10) / 10,
      p99: Math.round(percentile(v, 99) * 10) / 10,
    };
  return {
    clients: opts.clients,
    durationS: Math.round((performance.now() - started) / 100) / 10,
    requests: h.requests,
    errors: [...h.errors.values()].reduce((a, b) => a + b, 0),
    errorsByCall: Object.fromEntries(h.errors),
    errorSamples: h.errorSamples,
    latencyMs,
    worksCompleted: completed,
    worksFailed: failed,
    worksUnfinished: unfinished,
    resultsVerified: verified,
    rssBeforeMiB: rssBefore,
    rssAfterMiB: rssOfCluster(c),
  };
}

/** The deployment the harnesses use: loopback, generous guest-token rate limit (one token per simulated client). */
export async function startLoadCluster(apis = 2, workers = 2): Promise<Cluster> {
  const avail = await detectScaleout();
  if (!avail.available)
    throw new Error(`the scale-out harness needs PostgreSQL and Redis on their local ports: ${avail.reason}`);
  return startCluster({
    apis,
    workers,
    pgUrl: avail.pgUrl,
    redisUrl: avail.redisUrl,
    // the simulated clients name their own addresses through a "proxy" on loopback (TRUST_PROXY)
    // and every process notes event-loop gaps over 200 ms (server/http/loopWatch.ts) for the report
    env: {
      GUEST_TOKEN_RATE_LIMIT: '100000',
      LOG_LEVEL: 'error',
      TRUST_PROXY: '127.0.0.1',
      LOOP_WATCH_MS: '200',
      LOOP_WATCH_FILE: loopWatchFile,
    },
  });
}

/** Where the load cluster's processes note their event-loop gaps (one file per harness run). */
export const loopWatchFile = path.join(os.tmpdir(), `pixmill-loadtest-loop-${process.pid}.jsonl`);

/** The API processes' event-loop gaps over 200 ms so far, by kind (blocked: our code held the loop; starved: the machine was busy). */
export function apiLoopGaps(c: Pick<Cluster, 'apis'>): { blocked: number; starved: number; longestBlockedMs: number } {
  const pids = new Set(c.apis.map((a) => a.pid));
  const out = { blocked: 0, starved: 0, longestBlockedMs: 0 };
  if (!fs.existsSync(loopWatchFile)) return out;
  for (const line of fs.readFileSync(loopWatchFile, 'utf8').split('\n')) {
    if (!line) continue;
    const g = JSON.parse(line) as { pid: number; gapMs: number; kind: 'blocked' | 'starved' };
    if (!pids.has(g.pid)) continue;
    out[g.kind]++;
    if (g.kind === 'blocked') out.longestBlockedMs = Math.max(out.longestBlockedMs, Math.round(g.gapMs));
  }
  return out;
}

const num = (v: string | undefined, d: number) => (v && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : d);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const opts: LoadOptions = {
    clients: num(process.env.LOAD_CLIENTS, 200),
    pollMs: num(process.env.LOAD_POLL_MS, 2000),
    limitMs: num(process.env.LOAD_LIMIT_S, 150) * 1000,
  };
  const hardStop = setTimeout(
    () => {
      console.error('loadtest: hard time limit reached');
      process.exit(2);
    },
    opts.limitMs + 90_000 + (process.env.LOAD_FAIRNESS === '0' ? 0 : 240_000),
  );
  hardStop.unref();
  console.log(
    `loadtest: starting ${num(process.env.LOAD_APIS, 2)} API + ${num(process.env.LOAD_WORKERS, 2)} worker processes …`,
  );
  const c = await startLoadCluster(num(process.env.LOAD_APIS, 2), num(process.env.LOAD_WORKERS, 2));
  let report: LoadReport & { fairness?: FairnessReport; apiLoopGaps?: ReturnType<typeof apiLoopGaps> };
  try {
    console.log(`loadtest: ${opts.clients} clients, polling every ${opts.pollMs} ms, at most ${opts.limitMs / 1000} s`);
    report = await runLoad(c, opts);
    if (process.env.LOAD_FAIRNESS !== '0') {
      console.log('loadtest: fairness — 20 guest works queued, then a Pro work …');
      report.fairness = await runFairness(c);
    }
    report.apiLoopGaps = apiLoopGaps(c);
  } finally {
    await c.stop();
    fs.rmSync(loopWatchFile, { force: true });
  }
  console.log(JSON.stringify(report, null, 2));
  const out = path.resolve(import.meta.dirname, '..', 'bench', 'results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'loadtest.json'), JSON.stringify(report, null, 2));
  console.log(`written: bench/results/loadtest.json`);
  process.exit(report.errors === 0 && report.worksUnfinished === 0 && report.fairness?.pass !== false ? 0 : 1);
}
