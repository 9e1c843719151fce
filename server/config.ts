/** Runtime configuration, read from the environment once. */
import os from 'node:os';
import path from 'node:path';
import { PROCESS_TIMEOUT_MS } from '../src/domain/constants.js';

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
  /** onnxruntime intra-op threads per worker, chosen so workers × threads ≤ cores */
  engineThreads: number;
  /** directory holding converted ONNX models */
  modelsDir: string;
  /** directory holding the built PWA (served at /) */
  clientDir: string;
  /** run the job runner in this process (false for `start:api` in scale-out) */
  runJobs: boolean;
  /** guest_token creations per minute per IP */
  guestTokenRateLimit: number;
  logLevel: string;
  /** upload_url may fetch loopback/private addresses (ALLOW_PRIVATE_URLS=1; tests fetch from the test server) */
  allowPrivateUrls: boolean;
  /** the address users reach the server at, for every absolute URL it writes (payment returns) */
  publicUrl: string;
  /** none (default: no purchasing, plans by `npm run admin`), local (tests and demo only: free built-in checkout), stripe */
  paymentProvider: 'none' | 'local' | 'stripe';
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  /** STRIPE_PRICE_<product id>_<currency>=price_… ; a missing entry is charged from the built-in price list */
  stripePrices: Record<string, string>;
  /** STRIPE_API_BASE: another Stripe API address (tests replay recorded answers; stripe-mock) */
  stripeApiBase: string | undefined;
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

const int = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Math.trunc(Number(v)) : d);

function paymentProvider(v: string | undefined): Config['paymentProvider'] {
  if (!v) return 'none';
  if ((PAYMENT_PROVIDERS as readonly string[]).includes(v)) return v as Config['paymentProvider'];
  throw new Error(`PAYMENT_PROVIDER must be one of ${PAYMENT_PROVIDERS.join(', ')}`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const root = path.resolve(import.meta.dirname, '..');
  const cores = Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
  const processWorkers = Math.max(1, int(env.PROCESS_WORKERS, 1));
  const cfg: Config = {
    port: int(env.PORT, 8080),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || path.join(root, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    queuePrefix: env.QUEUE_PREFIX || 'pixmill',
    jobTimeoutMs: int(env.JOB_TIMEOUT_MS, PROCESS_TIMEOUT_MS),
    processWorkers,
    engineThreads: Math.max(1, int(env.ENGINE_THREADS, Math.floor(cores / processWorkers))),
    modelsDir: path.resolve(env.MODELS_DIR || path.join(root, 'models')),
    clientDir: path.resolve(env.CLIENT_DIR || path.join(root, 'dist')),
    runJobs: env.RUN_JOBS !== '0',
    guestTokenRateLimit: int(env.GUEST_TOKEN_RATE_LIMIT, 30),
    logLevel: env.LOG_LEVEL || 'info',
    allowPrivateUrls: env.ALLOW_PRIVATE_URLS === '1',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${int(env.PORT, 8080)}`).replace(/\/+$/, ''),
    paymentProvider: paymentProvider(env.PAYMENT_PROVIDER),
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    stripePrices: stripePrices(env),
    stripeApiBase: env.STRIPE_API_BASE || undefined,
  };
  return { ...cfg, ...overrides };
}
