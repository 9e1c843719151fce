/** Runtime configuration, read from the environment once. */
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
  /** days results, sources and thumbnails are kept per retention class (RETENTION_DAYS_GUEST/_FREE/_SUBSCRIBER, ≥ 1) */
  retentionDays: Record<RetentionClass, number>;
  /** how often the process that runs jobs runs the retention sweep, ms (RETENTION_INTERVAL_MS; 0 = never) */
  retentionIntervalMs: number;
}

const int = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Math.trunc(Number(v)) : d);

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
    retentionDays: {
      guest: Math.max(1, int(env.RETENTION_DAYS_GUEST, RETENTION_DAYS_DEFAULT.guest)),
      free: Math.max(1, int(env.RETENTION_DAYS_FREE, RETENTION_DAYS_DEFAULT.free)),
      subscriber: Math.max(1, int(env.RETENTION_DAYS_SUBSCRIBER, RETENTION_DAYS_DEFAULT.subscriber)),
    },
    retentionIntervalMs: Math.max(0, int(env.RETENTION_INTERVAL_MS, 60 * 60 * 1000)),
  };
  return { ...cfg, ...overrides };
}
