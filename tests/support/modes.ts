/**
 * Running the integration suite against the scale-out mode (PostgreSQL + BullMQ on Redis).
 *
 * - `detectScaleout()` asks PostgreSQL and Redis on their usual local ports (≤ 1 s together).
 * - `createTestDatabase()` makes a fresh, isolated database on that server and drops it afterwards;
 *   `createMigratedTestDatabase()` the same with the schema already in it (a copy of a migrated template).
 * - `scaleoutOverrides()` gives Config overrides (fresh database, unique BullMQ prefix) and a cleanup.
 * - `PIXMILL_TEST_MODE=scaleout` makes `testModeOverrides()` return those, so a test server helper
 *   can run every integration test in the scale-out mode without the tests knowing.
 *
 * Run as a script (`node --import tsx tests/support/modes.ts`) it prints whether the scale-out pass
 * can run and exits 0 (yes) or 3 (services not answering).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { Config } from '../../server/config.js';

export const TEST_PG_URL = process.env.PIXMILL_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.PIXMILL_TEST_REDIS_URL || 'redis://127.0.0.1:6379';

export interface ScaleoutAvailability {
  available: boolean;
  /** why the scale-out pass cannot run (empty when available) */
  reason: string;
  pgUrl: string;
  redisUrl: string;
}

const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });

/** TCP-level check first, so a closed port fails in milliseconds instead of a driver's retry loop. */
function portOpen(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

async function pgAnswers(url: string, timeoutMs: number): Promise<void> {
  const u = new URL(url);
  if (!(await portOpen(u.hostname, Number(u.port || 5432), timeoutMs)))
    throw new Error(`PostgreSQL not listening at ${u.host}`);
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await withTimeout(c.connect(), timeoutMs, 'PostgreSQL');
    const r = await withTimeout(
      c.query<{ ok: boolean }>('SELECT (rolcreatedb OR rolsuper) AS ok FROM pg_roles WHERE rolname = current_user'),
      timeoutMs,
      'PostgreSQL',
    );
    // each test server gets its own database
    if (!r.rows[0]?.ok)
      throw new Error(`PostgreSQL role of ${url.replace(/:[^:@/]*@/, ':***@')} may not CREATE DATABASE`);
  } finally {
    c.end().catch(() => {});
  }
}

async function redisAnswers(url: string, timeoutMs: number): Promise<void> {
  const u = new URL(url);
  if (!(await portOpen(u.hostname, Number(u.port || 6379), timeoutMs)))
    throw new Error(`Redis not listening at ${u.host}`);
  const r = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  r.on('error', () => {});
  try {
    await withTimeout(r.connect(), timeoutMs, 'Redis');
    const pong = await withTimeout(r.ping(), timeoutMs, 'Redis');
    if (pong !== 'PONG') throw new Error(`Redis answered ${pong}`);
  } finally {
    r.disconnect();
  }
}

let cached: Promise<ScaleoutAvailability> | undefined;

/** Whether PostgreSQL and Redis answer (checked in parallel, ≤ ~1 s). PIXMILL_SCALEOUT=0 turns the pass off. */
export function detectScaleout(timeoutMs = 900): Promise<ScaleoutAvailability> {
  cached ??= (async () => {
    const base = { pgUrl: TEST_PG_URL, redisUrl: TEST_REDIS_URL };
    if (process.env.PIXMILL_SCALEOUT === '0') return { ...base, available: false, reason: 'PIXMILL_SCALEOUT=0' };
    const [p, r] = await Promise.allSettled([
      pgAnswers(TEST_PG_URL, timeoutMs),
      redisAnswers(TEST_REDIS_URL, timeoutMs),
    ]);
    const reasons = [p, r]
      .filter((x): x is PromiseRejectedResult => x.status === 'rejected')
      .map((x) => String(x.reason?.message ?? x.reason));
    return { ...base, available: reasons.length === 0, reason: reasons.join('; ') };
  })();
  return cached;
}

/** A unique name that carries its creation time (base 36 seconds), so leftovers can be recognised as stale. */
export const randomName = (prefix = 'pixmill_t_') =>
  `${prefix}${Math.floor(Date.now() / 1000).toString(36)}_${randomBytes(4).toString('hex')}`;

/** Test databases older than this with nobody connected are leftovers of a killed run. */
const STALE_TEST_DB_S = 3 * 3600;

async function dropStaleTestDatabases(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string; conns: string }>(
    `SELECT d.datname, (SELECT count(*) FROM pg_stat_activity a WHERE a.datname = d.datname) AS conns
       FROM pg_database d WHERE d.datname LIKE 'pixmill\\_t\\_%'`,
  );
  const now = Date.now() / 1000;
  for (const r of rows) {
    const m = /^pixmill_t_([0-9a-z]+)_[0-9a-f]{8}$/.exec(r.datname);
    if (!m || Number(r.conns) > 0 || now - parseInt(m[1]!, 36) < STALE_TEST_DB_S) continue;
    await admin.query(`DROP DATABASE IF EXISTS ${r.datname}`).catch(() => undefined);
  }
}

/** `postgres://…/test` → the same server and credentials with another database name. */
function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = '/' + name;
  return u.toString();
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh empty database on the test server (trust auth), dropped (even with open connections) by drop(). */
export async function createTestDatabase(adminUrl = TEST_PG_URL): Promise<TestDatabase> {
  const name = randomName();
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await admin.connect();
  try {
    await dropStaleTestDatabases(admin).catch(() => undefined);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return testDatabase(adminUrl, name);
}

function testDatabase(adminUrl: string, name: string): TestDatabase {
  return {
    url: withDatabase(adminUrl, name),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../server/repositories');
/** The template's name: it changes whenever a migration (or the code that runs them) changes. */
function templateName(): string {
  const h = createHash('sha256');
  const files = [
    'db.ts',
    'postgres.ts',
    'schema.ts',
    ...fs
      .readdirSync(path.join(MIGRATIONS_DIR, 'migrations'))
      .filter((f) => !f.includes('.test.'))
      .sort()
      .map((f) => `migrations/${f}`),
  ];
  for (const f of files)
    if (fs.existsSync(path.join(MIGRATIONS_DIR, f))) h.update(f).update(fs.readFileSync(path.join(MIGRATIONS_DIR, f)));
  return `pixmill_tpl_${h.digest('hex').slice(0, 12)}`;
}

/**
 * A fresh database with every migration applied, copied from a migrated template (`CREATE DATABASE …
 * TEMPLATE`): a test server in the scale-out mode then starts without running the migrations itself (about
 * a second of PostgreSQL work each, for the ~100 servers of the scale-out pass). The template is made once
 * per schema, under an advisory lock so that parallel test workers neither race nor copy it while it is
 * being made, and published by a rename only when complete. Tests of the migrations themselves use
 * createTestDatabase() (empty).
 */
async function createMigratedTestDatabase(adminUrl = TEST_PG_URL): Promise<TestDatabase> {
  const tpl = templateName();
  const name = randomName();
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [0x70697874]);
    try {
      await dropStaleTestDatabases(admin).catch(() => undefined);
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [tpl]);
      if (!rowCount) {
        // templates of older schemas go; a half-made one (a crash mid-way) is remade
        const { rows } = await admin.query<{ datname: string }>(
          `SELECT datname FROM pg_database WHERE datname LIKE 'pixmill\\_tpl\\_%'`,
        );
        for (const r of rows)
          await admin.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`).catch(() => undefined);
        const making = `${tpl}_making`;
        await admin.query(`CREATE DATABASE ${making}`);
        const { openDatabase } = await import('../../server/repositories/db.js');
        const db = await openDatabase({ dataDir: '', databaseUrl: withDatabase(adminUrl, making) });
        await db.destroy();
        await admin.query(`ALTER DATABASE ${making} RENAME TO ${tpl}`);
      }
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${tpl}`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [0x70697874]);
    }
  } finally {
    await admin.end();
  }
  return testDatabase(adminUrl, name);
}

/** Deletes every Redis key under a BullMQ prefix (a test server's whole queue). */
export async function deleteQueueKeys(redisUrl: string, prefix: string): Promise<number> {
  const r = new Redis(redisUrl, { maxRetriesPerRequest: 1, retryStrategy: () => null });
  r.on('error', () => {});
  let n = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) n += await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
  return n;
}

export interface ModeOverrides {
  mode: 'embedded' | 'scaleout';
  overrides: Partial<Config>;
  cleanup(): Promise<void>;
}

/** Overrides for one scale-out test server: its own database and its own BullMQ prefix. */
export async function scaleoutOverrides(opts: { pgUrl?: string; redisUrl?: string } = {}): Promise<ModeOverrides> {
  const db = await createMigratedTestDatabase(opts.pgUrl ?? TEST_PG_URL);
  const redisUrl = opts.redisUrl ?? TEST_REDIS_URL;
  const queuePrefix = randomName('pixmill_q_');
  return {
    mode: 'scaleout',
    overrides: { databaseUrl: db.url, redisUrl, queuePrefix },
    async cleanup() {
      await Promise.allSettled([db.drop(), deleteQueueKeys(redisUrl, queuePrefix)]);
    },
  };
}

/** Databases and prefixes of test servers stopped with keepData, by data dir, so a restart finds its data. */
const kept = new Map<string, Partial<Config> & { cleanup(): Promise<void> }>();

export interface TestModeOverrides {
  mode: 'embedded' | 'scaleout';
  overrides: Partial<Config>;
  /** drops the database and queue keys, or keeps them for the next server on the same data dir */
  cleanup(opts?: { keepData?: boolean }): Promise<void>;
}

/**
 * The mode the integration suite runs in: PIXMILL_TEST_MODE=scaleout, otherwise embedded.
 * For startTestServer: `dataDir` ties a database to the server's data dir (a restart with the same
 * dir and keepData reuses it); a caller choosing databaseUrl/redisUrl itself gets no overrides.
 */
export async function testModeOverrides(
  opts: { dataDir?: string; explicit?: Partial<Config> } = {},
): Promise<TestModeOverrides> {
  const none: TestModeOverrides = { mode: 'embedded', overrides: {}, async cleanup() {} };
  if (process.env.PIXMILL_TEST_MODE !== 'scaleout') return none;
  if (opts.explicit && ('databaseUrl' in opts.explicit || 'redisUrl' in opts.explicit)) return none;
  const a = await detectScaleout();
  if (!a.available) throw new Error(`PIXMILL_TEST_MODE=scaleout but the services do not answer: ${a.reason}`);
  const key = opts.dataDir;
  const reuse = key ? kept.get(key) : undefined;
  if (key) kept.delete(key);
  const fresh = reuse ? null : await scaleoutOverrides({ pgUrl: a.pgUrl, redisUrl: a.redisUrl });
  const overrides: Partial<Config> = reuse
    ? { databaseUrl: reuse.databaseUrl, redisUrl: reuse.redisUrl, queuePrefix: reuse.queuePrefix }
    : fresh!.overrides;
  const drop = reuse ? reuse.cleanup : fresh!.cleanup;
  return {
    mode: 'scaleout',
    overrides,
    async cleanup(c) {
      if (c?.keepData && key) kept.set(key, { ...overrides, cleanup: drop });
      else await drop();
    },
  };
}

export interface TcpProxy {
  port: number;
  /** postgres://… or redis://… URL rewritten to go through the proxy */
  url(target: string): string;
  /** refuses new connections and cuts every open one: the service looks unreachable */
  stop(): Promise<void>;
  /** listens again on the same port */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback TCP relay in front of a real service, to simulate it going away and coming back without
 * touching the machine's service.
 */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: targetHost, port: targetPort });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const port = await listen(0);
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  return {
    port,
    url(target) {
      const u = new URL(target);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    stop,
    async start() {
      if (!server.listening) await listen(port);
    },
    close: stop,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const a = await detectScaleout();
  if (a.available)
    console.log(`scale-out pass: PostgreSQL (${new URL(a.pgUrl).host}) and Redis (${new URL(a.redisUrl).host}) answer`);
  else console.log(`scale-out pass SKIPPED: ${a.reason}`);
  process.exit(a.available ? 0 : 3);
}
