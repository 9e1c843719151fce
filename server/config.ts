/** Runtime configuration, read from the environment once. */
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PROCESS_TIMEOUT_MS } from '../src/domain/constants.js';
import { RETENTION_DAYS_DEFAULT, type RetentionClass } from '../src/domain/plans.js';

export interface Config {
  port: number;
  host: string;
  /** blobs and (embedded mode) the SQLite file live here */
  dataDir: string;
  /** postgres://… selects PostgreSQL; otherwise SQLite at dataDir/pixmill.sqlite */
  databaseUrl: string | undefined;
  /** redis://… selects the BullMQ queue (scale-out); otherwise the embedded jobs table runner */
  redisUrl: string | undefined;
  /** BullMQ key prefix, so several deployments (or test servers) can share one Redis */
  queuePrefix: string;
  /** hard limit for a non-workflow job, ms (spec: 300000) */
  jobTimeoutMs: number;
  /** processing worker threads in embedded mode */
  processWorkers: number;
  /** onnxruntime intra-op threads per worker, chosen so workers × threads ≤ cores − engineReservedCores */
  engineThreads: number;
  /** cores left to the API when sizing engine threads (ENGINE_RESERVED_CORES; default 1 from 4 cores up) */
  engineReservedCores: number;
  /** OS nice value of processing slot processes (SLOT_NICE, 0..19; default 10): engine work yields the CPU to HTTP */
  slotNice: number;
  /** directory holding converted ONNX models */
  modelsDir: string;
  /** directory holding the built PWA (served at /) */
  clientDir: string;
  /**
   * whether the built test pages (the upload harness under /src/pwa/harness/) are served
   * (SERVE_TEST_PAGES=1: the browser tests only). Off by default; source maps are never served.
   */
  serveTestPages: boolean;
  /** how long one request may take to arrive whole, ms (REQUEST_TIMEOUT_MS, default 120 000; 408 after) */
  requestTimeoutMs: number;
  /** run the job runner in this process (false for `start:api` in scale-out) */
  runJobs: boolean;
  /** guest_token creations per minute per IP */
  guestTokenRateLimit: number;
  logLevel: string;
  /** upload_url may fetch loopback/private addresses (ALLOW_PRIVATE_URLS=1; tests fetch from the test server) */
  allowPrivateUrls: boolean;
  /** none (default: no purchasing, plans by `npm run admin`), local (tests and demo only: free built-in checkout), stripe */
  paymentProvider: 'none' | 'local' | 'stripe';
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  /** STRIPE_PRICE_<product id>_<currency>=price_… ; a missing entry is charged from the built-in price list */
  stripePrices: Record<string, string>;
  /** STRIPE_API_BASE: another Stripe API address (tests replay recorded answers; stripe-mock) */
  stripeApiBase: string | undefined;
  /**
   * Which peers may name the client address (X-Forwarded-For / -Proto / -Host), for per-address limits
   * and req.protocol: false (default: nobody, the socket's address counts), a hop count, or the proxies'
   * addresses/CIDRs (TRUST_PROXY=1 or TRUST_PROXY=10.0.0.0/8,127.0.0.1).
   */
  trustProxy: TrustProxy;
  /** The address the site shows for contact (CONTACT_EMAIL), served to the client with the contact page. */
  contactEmail: string;
  /** The public origin (PUBLIC_URL, scheme://host[:port]) for every absolute address the server writes. */
  publicUrl: string;
  /** PUBLIC_URL was given: cross-site checks compare against it; otherwise against the request's own Host. */
  publicUrlFixed: boolean;
  /** days results, sources and thumbnails are kept per retention class (RETENTION_DAYS_GUEST/_FREE/_SUBSCRIBER, ≥ 1) */
  retentionDays: Record<RetentionClass, number>;
  /** how often the process that runs jobs runs the retention sweep, ms (RETENTION_INTERVAL_MS; 0 = never) */
  retentionIntervalMs: number;
  /** days analytics and credit events are kept (EVENTS_RETENTION_DAYS, ≥ 1; default 90) */
  eventsRetentionDays: number;
}

const PAYMENT_PROVIDERS = ['none', 'local', 'stripe'] as const;

/** STRIPE_PRICE_606838_USD=price_123 → { '606838:USD': 'price_123' } */
function stripePrices(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    const m = /^STRIPE_PRICE_(\d+)_([A-Z]{3})$/.exec(k);
    if (m && v) out[`${m[1]}:${m[2]}`] = v;
  }
  return out;
}

/** Fastify's trustProxy in the two forms we accept (never `true`: that trusts every peer). */
export type TrustProxy = false | number | string[];

/** `TRUST_PROXY`: unset/0/false/off → false; a positive integer → hops; otherwise a comma list of addresses/CIDRs. */
export function parseTrustProxy(v: string | undefined): TrustProxy {
  const s = (v ?? '').trim();
  if (s === '' || /^(0|false|off|no)$/i.test(s)) return false;
  if (/^\d+$/.test(s)) return Number(s);
  if (/^(true|on|yes|\*)$/i.test(s)) throw new Error('TRUST_PROXY must be a hop count or the proxies\' addresses/CIDRs, not "true" (that would let any client forge its address)');
  const list = s.split(',').map((x) => x.trim()).filter(Boolean);
  for (const entry of list) {
    const [addr, bits, more] = entry.split('/');
    const named = ['loopback', 'linklocal', 'uniquelocal'].includes(entry);
    const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (net.isIPv6(addr!) ? 128 : 32));
    if (!named && (more !== undefined || !net.isIP(addr!) || !okBits)) throw new Error(`TRUST_PROXY: "${entry}" is not an address, a CIDR or a hop count`);
  }
  return list;
}

/** `PUBLIC_URL` as an origin without a trailing slash; only http(s) origins, no path. */
export function parsePublicUrl(v: string | undefined, port: number): { publicUrl: string; publicUrlFixed: boolean } {
  const s = (v ?? '').trim();
  if (!s) return { publicUrl: `http://localhost:${port}`, publicUrlFixed: false };
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new Error(`PUBLIC_URL "${s}" is not a URL (expected e.g. https://pixmill.example)`);
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash || u.username)
    throw new Error(`PUBLIC_URL "${s}" must be an http(s) origin without a path (e.g. https://pixmill.example)`);
  return { publicUrl: u.origin, publicUrlFixed: true };
}

/** An integer setting: the variable's value, or `d` when it is unset, empty or not a number. The one parser of integer settings. */
export const envInt = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Math.trunc(Number(v)) : d);
const int = envInt;
/** A positive integer setting: `d` also when the value is 0 or negative. */
const positiveInt = (v: string | undefined, d: number) => {
  const n = envInt(v, d);
  return n > 0 ? n : d;
};

/** PostgreSQL pool limits (PG_POOL_MAX, PG_CONNECT_TIMEOUT_MS, PG_IDLE_TIMEOUT_MS, PG_QUERY_TIMEOUT_MS). */
export interface PgPoolSettings {
  max: number;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  queryTimeoutMs: number;
}

export function pgPoolSettings(env: NodeJS.ProcessEnv = process.env): PgPoolSettings {
  return {
    max: positiveInt(env.PG_POOL_MAX, 10),
    connectTimeoutMs: positiveInt(env.PG_CONNECT_TIMEOUT_MS, 3000),
    idleTimeoutMs: positiveInt(env.PG_IDLE_TIMEOUT_MS, 30_000),
    queryTimeoutMs: positiveInt(env.PG_QUERY_TIMEOUT_MS, 30_000),
  };
}

/** BullMQ timings (BULLMQ_LOCK_MS, BULLMQ_STALLED_MS, BULLMQ_RECONCILE_MS). */
export interface BullmqSettings {
  lockMs: number;
  stalledCheckMs: number;
  reconcileMs: number;
}

export function bullmqSettings(env: NodeJS.ProcessEnv = process.env): BullmqSettings {
  return {
    lockMs: positiveInt(env.BULLMQ_LOCK_MS, 30_000),
    stalledCheckMs: positiveInt(env.BULLMQ_STALLED_MS, 15_000),
    reconcileMs: positiveInt(env.BULLMQ_RECONCILE_MS, 5_000),
  };
}

/**
 * A slot process's nice value travels to it as PIXMILL_SLOT_NICE (set by the parent from SLOT_NICE):
 * the child applies it on import, before any thread starts, so it is read here, not through loadConfig.
 */
export const SLOT_NICE_VAR = 'PIXMILL_SLOT_NICE';
export function slotNiceOf(env: NodeJS.ProcessEnv = process.env): number | null {
  const nice = Number(env[SLOT_NICE_VAR]);
  return Number.isInteger(nice) && nice > 0 ? nice : null;
}

/** The environment a slot process starts with: this process's, plus its nice value. */
export function slotChildEnv(nice: number, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, [SLOT_NICE_VAR]: String(nice) };
}

function paymentProvider(v: string | undefined): Config['paymentProvider'] {
  if (!v) return 'none';
  if ((PAYMENT_PROVIDERS as readonly string[]).includes(v)) return v as Config['paymentProvider'];
  throw new Error(`PAYMENT_PROVIDER must be one of ${PAYMENT_PROVIDERS.join(', ')}`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const root = path.resolve(import.meta.dirname, '..');
  const cores = Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
  const processWorkers = Math.max(1, int(env.PROCESS_WORKERS, 1));
  const port = int(env.PORT, 8080);
  // On 2 cores a reserved core would halve engine speed; the lower slot priority already lets HTTP preempt.
  const engineReservedCores = Math.max(0, Math.min(cores - 1, int(env.ENGINE_RESERVED_CORES, cores >= 4 ? 1 : 0)));
  const cfg: Config = {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || path.join(root, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    queuePrefix: env.QUEUE_PREFIX || 'pixmill',
    jobTimeoutMs: int(env.JOB_TIMEOUT_MS, PROCESS_TIMEOUT_MS),
    processWorkers,
    engineThreads: Math.max(1, int(env.ENGINE_THREADS, Math.floor((cores - engineReservedCores) / processWorkers))),
    engineReservedCores,
    slotNice: Math.max(0, Math.min(19, int(env.SLOT_NICE, 10))),
    modelsDir: path.resolve(env.MODELS_DIR || path.join(root, 'models')),
    clientDir: path.resolve(env.CLIENT_DIR || path.join(root, 'dist')),
    serveTestPages: env.SERVE_TEST_PAGES === '1',
    requestTimeoutMs: Math.max(1000, int(env.REQUEST_TIMEOUT_MS, 120_000)),
    runJobs: env.RUN_JOBS !== '0',
    guestTokenRateLimit: int(env.GUEST_TOKEN_RATE_LIMIT, 30),
    logLevel: env.LOG_LEVEL || 'info',
    allowPrivateUrls: env.ALLOW_PRIVATE_URLS === '1',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    ...parsePublicUrl(env.PUBLIC_URL, port),
    contactEmail: env.CONTACT_EMAIL || 'support@pixmill.example',
    paymentProvider: paymentProvider(env.PAYMENT_PROVIDER),
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    stripePrices: stripePrices(env),
    stripeApiBase: env.STRIPE_API_BASE || undefined,
    retentionDays: {
      guest: Math.max(1, int(env.RETENTION_DAYS_GUEST, RETENTION_DAYS_DEFAULT.guest)),
      free: Math.max(1, int(env.RETENTION_DAYS_FREE, RETENTION_DAYS_DEFAULT.free)),
      subscriber: Math.max(1, int(env.RETENTION_DAYS_SUBSCRIBER, RETENTION_DAYS_DEFAULT.subscriber)),
    },
    retentionIntervalMs: Math.max(0, int(env.RETENTION_INTERVAL_MS, 60 * 60 * 1000)),
    eventsRetentionDays: Math.max(1, int(env.EVENTS_RETENTION_DAYS, 90)),
  };
  return { ...cfg, ...overrides };
}
