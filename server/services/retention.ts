/**
 * Retention (ARCHITECTURE §6): results, sources and thumbnails are deleted after a configurable age
 * per level (RETENTION_DAYS_GUEST / _FREE / _SUBSCRIBER), unfinished sliced uploads after 24 hours.
 * Blobs go; rows stay marked `expired_at`, so history still lists the work and a download answers
 * a clear "expired" refusal (410, code 10001) instead of "not found".
 *
 * Runs in the process that runs jobs (embedded: the one process; scale-out: every worker) on a timer;
 * a lease row makes one of several workers run it per interval.
 */
import { randomUUID } from 'node:crypto';
import { UPLOADED_CACHE_EXPIRY_MS } from '../../src/shared/domain/constants.js';
import { retentionClassOf, UPLOAD_QUOTAS, type Level } from '../../src/shared/domain/plans.js';
import { paramError } from '../errors.js';
import { serverLogger } from '../jobs/log.js';
import { extrasOf } from '../repositories/resultFiles.js';
import * as repo from '../repositories/retentionRepository.js';
import { quotaUsage } from '../repositories/uploadRepository.js';
import type { ServiceBase } from './base.js';
import type { EventService } from './events.js';
import type { LicenseService } from './license.js';
import type { UploadService } from './uploads.js';
import type { Principal } from './tokens.js';

/** What this service uses: the base (database, configuration, blobs) and the services it calls. */
type Deps = ServiceBase & { services: { events: EventService; license: LicenseService; uploads: UploadService } };

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 200;
const LEASE = 'retention';
/** First sweep shortly after start, so a restarted worker does not wait a whole interval. */
const FIRST_RUN_DELAY_MS = 10_000;

/** A kept-no-longer answer for a work: code 10001 like other refusals, HTTP 410 Gone, naming the plan's retention in days. */
export const workExpired = (days: number) => paramError('workExpired', { days });

export interface RetentionReport {
  works: number;
  uploads: number;
  unfinished: number;
  /** events past EVENTS_RETENTION_DAYS deleted */
  events: number;
}

/** GET /api/v2/retention (and `retention_days` in upload/list): what the client tells the user. */
export interface RetentionView {
  level: Level;
  /** days results, sources and thumbnails are kept */
  retention_days: number;
  /** hours an unfinished sliced upload is kept */
  unfinished_upload_hours: number;
  uploads_per_minute: number;
  stored_bytes_limit: number;
  stored_bytes_used: number;
}

export class RetentionService {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  /** this process, as lease holder */
  private readonly holder = randomUUID();

  constructor(private readonly deps: Deps) {}

  daysFor(level: Level): number {
    return this.deps.config.retentionDays[retentionClassOf(level)];
  }

  async view(p: Principal): Promise<RetentionView> {
    const quota = UPLOAD_QUOTAS[p.level];
    const used = await quotaUsage(this.deps.db, p.accountId, Date.now());
    return {
      level: p.level,
      retention_days: this.daysFor(p.level),
      unfinished_upload_hours: UPLOADED_CACHE_EXPIRY_MS / 3_600_000,
      uploads_per_minute: quota.uploadsPerMinute,
      stored_bytes_limit: quota.storedBytes,
      stored_bytes_used: used.storedBytes,
    };
  }

  /** Starts the periodic sweep in this process (RETENTION_INTERVAL_MS; 0 = off). */
  start(): void {
    const every = this.deps.config.retentionIntervalMs;
    if (!every || this.timer) return;
    const log = serverLogger(this.deps.config.logLevel);
    const run = () => {
      this.running ??= this.tick()
        .catch((err: unknown) => log.warn({ err: String(err) }, 'retention sweep failed'))
        .finally(() => (this.running = null));
    };
    const loop = (delay: number) => {
      this.timer = setTimeout(() => {
        run();
        loop(every);
      }, delay).unref();
    };
    loop(Math.min(FIRST_RUN_DELAY_MS, every));
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One guarded sweep: null when another process holds the lease for this interval. */
  async tick(now = Date.now()): Promise<RetentionReport | null> {
    const ttl = Math.max(60_000, this.deps.config.retentionIntervalMs);
    if (!(await repo.acquireLease(this.deps.db, LEASE, this.holder, now, ttl))) return null;
    return this.sweep(now);
  }

  /** Deletes what is past its age: per account, by the account's level now. */
  async sweep(now = Date.now()): Promise<RetentionReport> {
    const { db, services, config } = this.deps;
    const report: RetentionReport = {
      works: 0,
      uploads: 0,
      unfinished: await services.uploads.dropUnfinished(now),
      events: await services.events.prune(now),
    };
    const youngest = Math.min(...Object.values(config.retentionDays));
    for (const account of await repo.accountsWithOldItems(db, now - youngest * DAY_MS)) {
      const before = now - this.daysFor(services.license.levelOf(account, now)) * DAY_MS;
      // Works first: an upload goes only when no kept work still shows it as the "before" image.
      for (
        let works = await repo.expirableWorks(db, account.id, before, BATCH);
        works.length;
        works = await repo.expirableWorks(db, account.id, before, BATCH)
      ) {
        for (const w of works)
          await services.uploads.removeBlobs([w.result_key, ...Object.values(extrasOf(w.extras_json))]);
        await repo.markWorksExpired(
          db,
          works.map((w) => w.trans_id),
          now,
        );
        report.works += works.length;
      }
      for (
        let ups = await repo.expirableUploads(db, account.id, before, BATCH);
        ups.length;
        ups = await repo.expirableUploads(db, account.id, before, BATCH)
      ) {
        for (const u of ups) await services.uploads.removeBlobs(services.uploads.blobsOf(u));
        await repo.markUploadsExpired(
          db,
          ups.map((u) => u.uid),
          now,
        );
        report.uploads += ups.length;
      }
    }
    return report;
  }
}
