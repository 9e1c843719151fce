/** Runtime configuration: the one module that reads environment variables (SETTINGS lists them all). */
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { API_FREE_PREVIEWS_PER_MONTH, API_WEBHOOK_RETRY_MS } from '../src/shared/domain/apiPlans.js';
import { PROCESS_TIMEOUT_MS } from '../src/shared/domain/constants.js';
import { RETENTION_DAYS_DEFAULT, type RetentionClass } from '../src/shared/domain/plans.js';
import { GUEST_WORKS_PER_ADDRESS, QUEUE_AGING_MS } from '../src/shared/domain/queueOrder.js';
import { GUEST_BYTES_PER_HOUR } from '../src/shared/domain/fairUse.js';

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
  /** processing slots (child processes) of a process that runs jobs, in every mode */
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
  /** how long one request may take to arrive whole, ms (REQUEST_TIMEOUT_MS, default 120 000; 408 after) */
  requestTimeoutMs: number;
  /** run the job runner in this process (false for `start:api` in scale-out) */
  runJobs: boolean;
  /** guest_token creations per minute per IP */
  guestTokenRateLimit: number;
  /** guest works (running + waiting) at a time per client address group (GUEST_WORKS_PER_ADDRESS; docs/OPERATIONS.md) */
  guestWorksPerAddress: number;
  /** a waiting work moves up one queue class per this many ms (QUEUE_AGING_MS; src/shared/domain/queueOrder.ts) */
  queueAgingMs: number;
  /** upload_url gives a host this long to start answering, ms (URL_FIRST_BYTE_MS) */
  urlFirstByteMs: number;
  /** bytes one client address may upload without an account per clock hour (GUEST_BYTES_PER_HOUR) */
  guestBytesPerHour: number;
  logLevel: string;
  /** upload_url may fetch loopback/private addresses (ALLOW_PRIVATE_URLS=1; tests fetch from the test server) */
  allowPrivateUrls: boolean;
  /** developer API previews (size=preview, at most 0.25 MP) free of credit per account and month (docs/api.md) */
  apiFreePreviewsPerMonth: number;
  /** ms before a failed webhook delivery is tried again, 4× longer after each further failure (docs/api.md) */
  apiWebhookRetryMs: number;
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
  /** diagnosis: event-loop gaps longer than this are recorded, ms (LOOP_WATCH_MS; 0 = off) */
  loopWatchMs: number;
  /** where those records go (LOOP_WATCH_FILE; default DATA_DIR/loop-watch.jsonl) */
  loopWatchFile: string;
}

/** Fastify's trustProxy in the two forms we accept (never `true`: that trusts every peer). */
export type TrustProxy = false | number | string[];

/** `TRUST_PROXY`: unset/0/false/off → false; a positive integer → hops; otherwise a comma list of addresses/CIDRs. */
export function parseTrustProxy(v: string | undefined): TrustProxy {
  const s = (v ?? '').trim();
  if (s === '' || /^(0|false|off|no)$/i.test(s)) return false;
  if (/^\d+$/.test(s)) return Number(s);
  if (/^(true|on|yes|\*)$/i.test(s))
    throw new Error(
      'TRUST_PROXY must be a hop count or the proxies\' addresses/CIDRs, not "true" (that would let any client forge its address)',
    );
  const list = s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const entry of list) {
    const [addr, bits, more] = entry.split('/');
    const named = ['loopback', 'linklocal', 'uniquelocal'].includes(entry);
    const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (net.isIPv6(addr!) ? 128 : 32));
    if (!named && (more !== undefined || !net.isIP(addr!) || !okBits))
      throw new Error(`TRUST_PROXY: "${entry}" is not an address, a CIDR or a hop count`);
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
  if (
    (u.protocol !== 'http:' && u.protocol !== 'https:') ||
    (u.pathname !== '/' && u.pathname !== '') ||
    u.search ||
    u.hash ||
    u.username
  )
    throw new Error(`PUBLIC_URL "${s}" must be an http(s) origin without a path (e.g. https://pixmill.example)`);
  return { publicUrl: u.origin, publicUrlFixed: true };
}

/** An integer setting: the variable's value, or `d` when it is unset, empty or not a number. The one parser of integer settings. */
const envInt = (v: string | undefined, d: number) =>
  v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Math.trunc(Number(v)) : d;

/**
 * One environment variable: how its value is read, and its row in docs/configuration.md
 * (`npm run config-docs` writes the table from these definitions; a test fails when they differ).
 */
export interface Setting<T> {
  /** the kind of value, as the table shows it */
  readonly type: 'integer' | 'text' | 'path' | 'url' | 'flag' | 'choice' | 'list';
  /** the values a choice accepts */
  readonly choices?: readonly string[];
  /** the default as the table shows it */
  readonly default: string;
  readonly meaning: string;
  read(value: string | undefined): T;
}

interface IntegerOptions {
  min?: number;
  max?: number;
  /** a value ≤ 0 counts as unset (the default applies) instead of being clamped */
  positive?: boolean;
}

/** An integer with a fixed default, clamped to [min, max]. */
function integer(d: number, meaning: string, o: IntegerOptions = {}): Setting<number> {
  return {
    type: 'integer',
    default: String(d),
    meaning,
    read(v) {
      const n = envInt(v, d);
      if (o.positive && n <= 0) return d;
      return Math.min(o.max ?? Infinity, Math.max(o.min ?? -Infinity, n));
    },
  };
}

/** An integer whose default depends on the machine (computed by loadConfig): undefined when unset. */
function computedInteger(defaultText: string, meaning: string): Setting<number | undefined> {
  return {
    type: 'integer',
    default: defaultText,
    meaning,
    read: (v) => (v === undefined || v === '' || !Number.isFinite(Number(v)) ? undefined : Math.trunc(Number(v))),
  };
}

function text(d: string, meaning: string): Setting<string> {
  return { type: 'text', default: d, meaning, read: (v) => v || d };
}

function optional(type: 'text' | 'url' | 'path', meaning: string): Setting<string | undefined> {
  return { type, default: '–', meaning, read: (v) => v || undefined };
}

const root = path.resolve(import.meta.dirname, '..');

/** A directory, relative to the project root when the variable is unset. */
function dir(d: string, meaning: string): Setting<string> {
  return { type: 'path', default: `\`./${d}\``, meaning, read: (v) => path.resolve(v || path.join(root, d)) };
}

/** On only when the value is exactly `on` (default off), or off only when it is exactly `off` (default on). */
function flag(defaultOn: boolean, meaning: string): Setting<boolean> {
  return { type: 'flag', default: defaultOn ? '1' : '0', meaning, read: (v) => (defaultOn ? v !== '0' : v === '1') };
}

function choice<const C extends string>(choices: readonly C[], d: C, meaning: string): Setting<C> {
  return {
    type: 'choice',
    choices,
    default: d,
    meaning,
    read(v) {
      if (!v) return d;
      if ((choices as readonly string[]).includes(v)) return v as C;
      throw new Error(`must be one of ${choices.join(', ')}`);
    },
  };
}

const PAYMENT_PROVIDERS = ['none', 'local', 'stripe'] as const;

/**
 * Every environment variable the server reads, with its default and meaning. No other server module
 * reads process.env: each takes its values from loadConfig() (or, in the slot processes and engines,
 * from the narrower readers below it), and docs/configuration.md is generated from this list.
 */
export const SETTINGS = {
  PORT: integer(8080, 'HTTP port'),
  HOST: text('0.0.0.0', 'bind address'),
  DATA_DIR: dir('data', 'blobs and (embedded mode) the SQLite file'),
  DATABASE_URL: optional('url', '`postgres://…` selects PostgreSQL (scale-out); otherwise SQLite in `DATA_DIR`'),
  REDIS_URL: optional(
    'url',
    "`redis://…` selects the BullMQ queue (scale-out) and keeps the rate limits' counts, shared by all API processes; otherwise the embedded jobs table and counts per process",
  ),
  QUEUE_PREFIX: text(
    'pixmill',
    'Redis key prefix of the queue and the rate-limit counts (scale-out), so several deployments can share one Redis',
  ),
  JOB_TIMEOUT_MS: integer(PROCESS_TIMEOUT_MS, 'hard limit of a non-workflow job, ms (spec: 5 minutes)'),
  PROCESS_WORKERS: integer(1, 'processing slots (child processes) of a process that runs jobs', { min: 1 }),
  ENGINE_THREADS: computedInteger(
    '(cores − reserved) / slots',
    'onnxruntime intra-op threads and sharp concurrency per slot (at least 1)',
  ),
  ENGINE_RESERVED_CORES: computedInteger(
    '1 from 4 cores, else 0',
    'cores kept out of the engine thread count for the API (0 … cores − 1)',
  ),
  SLOT_NICE: integer(10, 'OS nice value of the processing slot processes (0 = normal priority, up to 19)', {
    min: 0,
    max: 19,
  }),
  ENGINE_SPIN: choice(
    ['auto', '1', '0'],
    'auto',
    "onnxruntime's idle-thread spinning: `1` on, `0` off, auto = off when slot threads fill the cores",
  ),
  ENGINE_INT8: choice(
    ['auto', '0'],
    'auto',
    'our enlarge and denoise nets in int8 where a calibrated int8 version is kept (`auto`; `server/engines/README.md`, "int8") or `0`: always fp32',
  ),
  ISNET_VARIANT: choice(
    ['medium', 'small'],
    'medium',
    'IS-Net weights for background removal (`medium` fp16 or `small` quint8)',
  ),
  MODELS_DIR: dir(
    'models',
    "converted ONNX models; an operator's own colorization model placed there as `colorize.onnx` replaces the classical colorizer",
  ),
  CLIENT_DIR: dir('dist', 'the built PWA served at `/` (tests point it at another build)'),
  REQUEST_TIMEOUT_MS: integer(120_000, 'how long one request may take to arrive whole, ms (408 after; at least 1000)', {
    min: 1000,
  }),
  RUN_JOBS: flag(true, '`0` = API only (scale-out `start:api`): this process runs no jobs'),
  GUEST_TOKEN_RATE_LIMIT: integer(30, 'guest tokens per minute per client address'),
  GUEST_WORKS_PER_ADDRESS: integer(
    GUEST_WORKS_PER_ADDRESS,
    'guest works (running + waiting) at a time from one client address (an IPv6 /64 counts as one); more answer 429 `guestWorksPerAddress`',
    { min: 1 },
  ),
  GUEST_BYTES_PER_HOUR: integer(
    GUEST_BYTES_PER_HOUR,
    'bytes one client address (an IPv6 /64 counts as one) may upload without an account per clock hour, over all its guest tokens; more answer 429 `guestBytesPerHour`',
    { min: 1 },
  ),
  URL_FIRST_BYTE_MS: integer(
    5_000,
    '`upload_url` gives the remote host this long to start answering (status line), ms; a host that accepts and stays silent no longer holds a fetch slot for the whole 20 s',
    { min: 100 },
  ),
  QUEUE_AGING_MS: integer(
    QUEUE_AGING_MS,
    'a waiting work moves up one queue class per this many ms, so no flood of paid works keeps a guest waiting for ever (48 classes from a guest to the front)',
    { min: 1 },
  ),
  LOG_LEVEL: text('info', 'pino level (`silent` to mute); tokens, sessions, nonces and signatures are redacted'),
  ALLOW_PRIVATE_URLS: flag(false, '`1` lets `upload_url` fetch loopback/private addresses (tests only)'),
  API_FREE_PREVIEWS_PER_MONTH: integer(
    API_FREE_PREVIEWS_PER_MONTH,
    'developer API results at `size=preview` (at most 0.25 MP) that cost no credit, per account and calendar month (UTC); later previews take a credit',
    { min: 0 },
  ),
  API_WEBHOOK_RETRY_MS: integer(
    API_WEBHOOK_RETRY_MS,
    'ms before a failed webhook delivery (developer API `webhook_url`) is tried again; each later try waits 4× longer, 5 tries in all',
    { min: 1 },
  ),
  TRUST_PROXY: {
    type: 'list',
    default: 'off',
    meaning:
      "who may name the client address in `X-Forwarded-For`/`-Proto`/`-Host`: a hop count (`1`) or the proxies' addresses/CIDRs (`10.0.0.0/8,127.0.0.1`); off = the socket's address (see `docs/OPERATIONS.md`, Public deployment)",
    read: (v) => parseTrustProxy(v),
  } satisfies Setting<TrustProxy>,
  PUBLIC_URL: {
    ...optional(
      'url',
      'the public origin (`https://pixmill.example`) for every absolute address the server writes (sitemap, payment return addresses) and for the cross-site check; set it in production',
    ),
    default: '`http://localhost:$PORT`',
  },
  CONTACT_EMAIL: text(
    'support@pixmill.example',
    'the contact address the site shows (served to the client with the contact page)',
  ),
  PAYMENT_PROVIDER: choice(
    PAYMENT_PROVIDERS,
    'none',
    '`none`: nothing can be bought, plans come from `npm run admin`; `stripe`: Stripe Checkout; `local`: a free built-in checkout for tests and demos only — never in production',
  ),
  STRIPE_SECRET_KEY: optional('text', 'required with `PAYMENT_PROVIDER=stripe` (`sk_…`)'),
  STRIPE_WEBHOOK_SECRET: optional(
    'text',
    'required with `PAYMENT_PROVIDER=stripe` (`whsec_…`); webhook address `PUBLIC_URL/api/payments/webhook/stripe`',
  ),
  STRIPE_API_BASE: optional('url', "another Stripe API address (stripe-mock, the tests' replay server)"),
  RETENTION_DAYS_GUEST: integer(
    RETENTION_DAYS_DEFAULT.guest,
    'days a guest\'s results, sources and thumbnails are kept (at least 1; docs/OPERATIONS.md, "Quotas and retention")',
    { min: 1 },
  ),
  RETENTION_DAYS_FREE: integer(RETENTION_DAYS_DEFAULT.free, 'the same for registered free and expired accounts', {
    min: 1,
  }),
  RETENTION_DAYS_SUBSCRIBER: integer(RETENTION_DAYS_DEFAULT.subscriber, 'the same for Basic and Pro', { min: 1 }),
  RETENTION_INTERVAL_MS: integer(
    60 * 60 * 1000,
    'how often the process that runs jobs sweeps, ms (`0` = never); one worker at a time',
    { min: 0 },
  ),
  EVENTS_RETENTION_DAYS: integer(90, 'days analytics and credit events are kept (at least 1)', { min: 1 }),
  PG_POOL_MAX: integer(10, 'PostgreSQL pool size per process (scale-out)', { positive: true }),
  PG_CONNECT_TIMEOUT_MS: integer(3000, 'how long a request waits for a PostgreSQL connection before it answers 503', {
    positive: true,
  }),
  PG_IDLE_TIMEOUT_MS: integer(30_000, 'an idle PostgreSQL connection is closed after this, ms', { positive: true }),
  PG_QUERY_TIMEOUT_MS: integer(
    30_000,
    'a PostgreSQL statement is ended after this, ms (a dead connection answers 503, not never)',
    { positive: true },
  ),
  BULLMQ_LOCK_MS: integer(
    30_000,
    "how long a worker's BullMQ lock lives without renewal before another worker takes the work over",
    { positive: true },
  ),
  BULLMQ_STALLED_MS: integer(15_000, 'how often BullMQ workers look for works whose lock lapsed, ms', {
    positive: true,
  }),
  BULLMQ_RECONCILE_MS: integer(
    5_000,
    'how often the database and Redis are compared (queued rows Redis does not know, orphaned runs), ms',
    { positive: true },
  ),
  LOOP_WATCH_MS: integer(
    0,
    'diagnosis: record event-loop gaps longer than this, ms (`0` = off; see server/http/loopWatch.ts)',
    { min: 0 },
  ),
  LOOP_WATCH_FILE: optional('path', 'where LOOP_WATCH_MS writes its records (default `DATA_DIR/loop-watch.jsonl`)'),
} satisfies Record<string, Setting<unknown>>;

/** Variables read by pattern rather than by name, each with its row in the table. */
export const SETTING_PATTERNS = {
  'STRIPE_PRICE_<product>_<currency>': {
    pattern: /^STRIPE_PRICE_(\d+)_([A-Z]{3})$/,
    type: 'text',
    default: '–',
    meaning:
      'a Stripe price id per product and currency, e.g. `STRIPE_PRICE_606838_EUR=price_…`; without one the built-in price is sent inline',
  },
} as const;

type SettingName = keyof typeof SETTINGS;
export type Settings = { [K in SettingName]: ReturnType<(typeof SETTINGS)[K]['read']> };

/** Reads every variable of SETTINGS; a value that cannot be used throws, naming the variable. */
export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const out: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(SETTINGS) as [SettingName, Setting<unknown>][]) {
    try {
      out[name] = setting.read(env[name]);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new Error(why.startsWith(name) ? why : `${name}: ${why}`, { cause: e });
    }
  }
  return out as Settings;
}

/** STRIPE_PRICE_606838_USD=price_123 → { '606838:USD': 'price_123' } */
function stripePrices(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    const m = SETTING_PATTERNS['STRIPE_PRICE_<product>_<currency>'].pattern.exec(k);
    if (m && v) out[`${m[1]}:${m[2]}`] = v;
  }
  return out;
}

/** PostgreSQL pool limits (PG_POOL_MAX, PG_CONNECT_TIMEOUT_MS, PG_IDLE_TIMEOUT_MS, PG_QUERY_TIMEOUT_MS). */
export interface PgPoolSettings {
  max: number;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  queryTimeoutMs: number;
}

export function pgPoolSettings(env: NodeJS.ProcessEnv = process.env): PgPoolSettings {
  const s = readSettings(env);
  return {
    max: s.PG_POOL_MAX,
    connectTimeoutMs: s.PG_CONNECT_TIMEOUT_MS,
    idleTimeoutMs: s.PG_IDLE_TIMEOUT_MS,
    queryTimeoutMs: s.PG_QUERY_TIMEOUT_MS,
  };
}

/** BullMQ timings (BULLMQ_LOCK_MS, BULLMQ_STALLED_MS, BULLMQ_RECONCILE_MS). */
export interface BullmqSettings {
  lockMs: number;
  stalledCheckMs: number;
  reconcileMs: number;
}

export function bullmqSettings(env: NodeJS.ProcessEnv = process.env): BullmqSettings {
  const s = readSettings(env);
  return { lockMs: s.BULLMQ_LOCK_MS, stalledCheckMs: s.BULLMQ_STALLED_MS, reconcileMs: s.BULLMQ_RECONCILE_MS };
}

/**
 * What the engines read in the process that runs them (a slot process inherits the environment):
 * read at each call, not at import, since a process (the e2e runner) may set them after loading.
 */
export interface EngineSettings {
  /** onnxruntime idle-thread spinning: forced on/off, or auto */
  spin: 'auto' | 'on' | 'off';
  /** run the int8 versions of our nets where one is kept (ENGINE_INT8) */
  int8: boolean;
  isnetVariant: 'medium' | 'small';
}

export function engineSettings(env: NodeJS.ProcessEnv = process.env): EngineSettings {
  const spin = SETTINGS.ENGINE_SPIN.read(env.ENGINE_SPIN);
  return {
    spin: spin === '1' ? 'on' : spin === '0' ? 'off' : 'auto',
    int8: SETTINGS.ENGINE_INT8.read(env.ENGINE_INT8) === 'auto',
    isnetVariant: SETTINGS.ISNET_VARIANT.read(env.ISNET_VARIANT),
  };
}

/**
 * A slot process's nice value travels to it as PIXMILL_SLOT_NICE (set by the parent from SLOT_NICE):
 * the child applies it on import, before any thread starts, so it is read here, not through loadConfig.
 */
const SLOT_NICE_VAR = 'PIXMILL_SLOT_NICE';
export function slotNiceOf(env: NodeJS.ProcessEnv = process.env): number | null {
  const nice = Number(env[SLOT_NICE_VAR]);
  return Number.isInteger(nice) && nice > 0 ? nice : null;
}

/** The environment a slot process starts with: this process's, plus its nice value. */
export function slotChildEnv(nice: number, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, [SLOT_NICE_VAR]: String(nice) };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const s = readSettings(env);
  const cores = Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
  // On 2 cores a reserved core would halve engine speed; the lower slot priority already lets HTTP preempt.
  const engineReservedCores = Math.max(0, Math.min(cores - 1, s.ENGINE_RESERVED_CORES ?? (cores >= 4 ? 1 : 0)));
  const cfg: Config = {
    port: s.PORT,
    host: s.HOST,
    dataDir: s.DATA_DIR,
    databaseUrl: s.DATABASE_URL,
    redisUrl: s.REDIS_URL,
    queuePrefix: s.QUEUE_PREFIX,
    jobTimeoutMs: s.JOB_TIMEOUT_MS,
    processWorkers: s.PROCESS_WORKERS,
    engineThreads: Math.max(1, s.ENGINE_THREADS ?? Math.floor((cores - engineReservedCores) / s.PROCESS_WORKERS)),
    engineReservedCores,
    slotNice: s.SLOT_NICE,
    modelsDir: s.MODELS_DIR,
    clientDir: s.CLIENT_DIR,
    requestTimeoutMs: s.REQUEST_TIMEOUT_MS,
    runJobs: s.RUN_JOBS,
    guestTokenRateLimit: s.GUEST_TOKEN_RATE_LIMIT,
    guestWorksPerAddress: s.GUEST_WORKS_PER_ADDRESS,
    queueAgingMs: s.QUEUE_AGING_MS,
    urlFirstByteMs: s.URL_FIRST_BYTE_MS,
    guestBytesPerHour: s.GUEST_BYTES_PER_HOUR,
    logLevel: s.LOG_LEVEL,
    allowPrivateUrls: s.ALLOW_PRIVATE_URLS,
    apiFreePreviewsPerMonth: s.API_FREE_PREVIEWS_PER_MONTH,
    apiWebhookRetryMs: s.API_WEBHOOK_RETRY_MS,
    trustProxy: s.TRUST_PROXY,
    ...parsePublicUrl(s.PUBLIC_URL, s.PORT),
    contactEmail: s.CONTACT_EMAIL,
    paymentProvider: s.PAYMENT_PROVIDER,
    stripeSecretKey: s.STRIPE_SECRET_KEY,
    stripeWebhookSecret: s.STRIPE_WEBHOOK_SECRET,
    stripePrices: stripePrices(env),
    stripeApiBase: s.STRIPE_API_BASE,
    retentionDays: {
      guest: s.RETENTION_DAYS_GUEST,
      free: s.RETENTION_DAYS_FREE,
      subscriber: s.RETENTION_DAYS_SUBSCRIBER,
    },
    retentionIntervalMs: s.RETENTION_INTERVAL_MS,
    eventsRetentionDays: s.EVENTS_RETENTION_DAYS,
    loopWatchMs: s.LOOP_WATCH_MS,
    loopWatchFile: s.LOOP_WATCH_FILE ?? path.join(s.DATA_DIR, 'loop-watch.jsonl'),
  };
  return { ...cfg, ...overrides };
}
