/**
 * A real scale-out deployment on loopback, for fault tests and the load harness: N API processes
 * (`server/main.ts`, RUN_JOBS=0) and M worker processes (`server/worker.ts`) sharing one fresh
 * PostgreSQL database, one BullMQ prefix and one DATA_DIR; optionally a private redis-server so
 * Redis can be restarted without touching the machine's service.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import {
  createTestDatabase,
  deleteQueueKeys,
  randomName,
  TEST_PG_URL,
  TEST_REDIS_URL,
  type TestDatabase,
} from './modes.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Direct child processes of a process (Linux /proc), e.g. a worker's sandbox processes. */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(d));
    } catch {
      // ended while we looked
    }
  }
  return out;
}

export interface Proc {
  name: string;
  child: ChildProcess;
  pid: number;
  exited: Promise<number | null>;
  /** last lines of stderr, for diagnostics */
  log(): string;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

function track(name: string, child: ChildProcess): Proc {
  const lines: string[] = [];
  const keep = (b: Buffer) => {
    for (const l of b.toString().split('\n')) if (l.trim()) lines.push(l.slice(0, 400));
    if (lines.length > 80) lines.splice(0, lines.length - 80);
  };
  child.stderr?.on('data', keep);
  child.stdout?.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))),
  );
  return {
    name,
    child,
    pid: child.pid!,
    exited,
    log: () => lines.join('\n'),
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

async function until(what: string, fn: () => Promise<boolean>, timeoutMs: number, proc?: Proc): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (proc && (proc.child.exitCode !== null || proc.child.signalCode !== null))
      throw new Error(`${what}: process exited\n${proc.log()}`);
    if (await fn().catch(() => false)) return;
    await sleep(25);
  }
  throw new Error(`${what}: not ready within ${timeoutMs} ms${proc ? `\n${proc.log()}` : ''}`);
}

export interface PrivateRedis {
  url: string;
  port: number;
  /** SIGKILL: the data is gone (no persistence), as after a crash */
  stop(): Promise<void>;
  start(): Promise<void>;
  restart(): Promise<void>;
}

/** A redis-server of our own on a free loopback port, without persistence. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let proc: Proc | null = null;
  const start = async () => {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    proc = track('redis', child);
    await until(
      'redis-server',
      async () => {
        const r = new Redis({
          port,
          host: '127.0.0.1',
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        r.on('error', () => undefined);
        try {
          await r.connect();
          return (await r.ping()) === 'PONG';
        } finally {
          r.disconnect();
        }
      },
      10_000,
      proc,
    );
  };
  const stop = async () => {
    await proc?.kill('SIGKILL');
    proc = null;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, start, stop, restart: async () => (await stop(), await start()) };
}

export interface ClusterOptions {
  apis?: number;
  workers?: number;
  redisUrl?: string;
  pgUrl?: string;
  /** extra environment for every process (e.g. BULLMQ_LOCK_MS for fast stall recovery) */
  env?: Record<string, string>;
  workerEnv?: Record<string, string>;
}

export interface Cluster {
  apiUrls: string[];
  apis: Proc[];
  workers: Proc[];
  dataDir: string;
  db: TestDatabase;
  prefix: string;
  redisUrl: string;
  env: Record<string, string>;
  /** starts one more worker process, optionally with extra environment (e.g. a short JOB_TIMEOUT_MS) */
  startWorker(env?: Record<string, string>): Promise<Proc>;
  stop(): Promise<void>;
}

export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  const db = await createTestDatabase(opts.pgUrl ?? TEST_PG_URL);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-cluster-'));
  const prefix = randomName('pixmill_q_');
  const redisUrl = opts.redisUrl ?? TEST_REDIS_URL;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'warn',
    CLIENT_DIR: path.join(dataDir, 'no-client'),
    PROCESS_WORKERS: '1',
    ENGINE_THREADS: '1',
    // no test-mode env of a parent test run leaks into the children
    PIXMILL_TEST_MODE: '',
    ...opts.env,
  };
  const apis: Proc[] = [];
  const workers: Proc[] = [];
  const apiUrls: string[] = [];
  const startWorker = async (extra: Record<string, string> = {}) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/worker.ts')], {
      cwd: ROOT,
      env: { ...env, ...opts.workerEnv, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const p = track(`worker${workers.length + 1}`, child);
    let started = false;
    child.stderr!.on('data', (b: Buffer) => {
      if (b.toString().includes('processing worker started')) started = true;
    });
    workers.push(p);
    await until(p.name, async () => started, 60_000, p);
    return p;
  };
  try {
    // The first API process runs the migrations alone; the rest start together.
    for (let i = 0; i < (opts.apis ?? 2); i++) {
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts')], {
        cwd: ROOT,
        env: { ...env, PORT: String(port), RUN_JOBS: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const p = track(`api${i + 1}`, child);
      apis.push(p);
      const url = `http://127.0.0.1:${port}`;
      await until(p.name, async () => (await fetch(url + '/api/health')).ok, 60_000, p);
      apiUrls.push(url);
    }
    await Promise.all(Array.from({ length: opts.workers ?? 2 }, () => startWorker()));
  } catch (e) {
    await Promise.allSettled([...apis, ...workers].map((p) => p.kill('SIGKILL')));
    await db.drop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  return {
    apiUrls,
    apis,
    workers,
    dataDir,
    db,
    prefix,
    redisUrl,
    env,
    startWorker,
    async stop() {
      await Promise.allSettled(
        [...apis, ...workers].map(async (p) => {
          const t = setTimeout(() => p.child.kill('SIGKILL'), 5000);
          await p.kill('SIGTERM');
          clearTimeout(t);
        }),
      );
      await db.drop().catch(() => undefined);
      await deleteQueueKeys(redisUrl, prefix).catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
