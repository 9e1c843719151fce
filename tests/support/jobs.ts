/** Test helpers for the processing half: a context without HTTP, stored uploads, waiting for a work to end. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterEach, beforeEach } from 'vitest';
import { loadConfig, type Config } from '../../server/config.js';
import { openDatabase } from '../../server/repositories/db.js';
import { BlobStore } from '../../server/repositories/blobStore.js';
import { composeServices } from '../../server/bootstrap.js';
import type { Deps } from '../../server/services/index.js';
import type { CreditService } from '../../server/services/credits.js';
import type { Principal, TokenService } from '../../server/services/tokens.js';
import type { JobService } from '../../server/services/jobs.js';
import type { Job } from '../../server/repositories/schema.js';
import { createTestDatabase, type TestDatabase } from './modes.js';

export interface ProcessingKit {
  deps: Deps;
  credits: CreditService;
  jobs: JobService;
  tokens: TokenService;
  dataDir: string;
  close(opts?: { keepData?: boolean }): Promise<void>;
}

/** The services this half needs, on a fresh SQLite data dir (or `dataDir` to reopen one). */
export async function processingKit(overrides: Partial<Config> = {}): Promise<ProcessingKit> {
  const dataDir = overrides.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-jobs-'));
  const config = loadConfig(process.env, {
    logLevel: 'silent',
    databaseUrl: undefined,
    redisUrl: undefined,
    processWorkers: 1,
    ...overrides,
    dataDir,
  });
  const db = await openDatabase(config);
  const blobs = new BlobStore(dataDir);
  const services = composeServices({ config, db, blobs });
  const deps = { config, db, blobs, services };
  return {
    deps,
    credits: services.credits,
    jobs: services.jobs,
    tokens: services.tokens,
    dataDir,
    async close(opts) {
      await services.jobs.stopRunner();
      await db.destroy();
      if (!opts?.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh kit for every test of a `describe.each` over database modes: SQLite, or a new PostgreSQL
 * database on `pgUrl` (dropped after the test). `use` receives each test's kit.
 */
export function kitForEachTest(mode: string, pgUrl: string, use: (kit: ProcessingKit) => void): void {
  let kit: ProcessingKit | undefined;
  let pgDb: TestDatabase | undefined;
  beforeEach(async () => {
    pgDb = mode === 'postgres' ? await createTestDatabase(pgUrl) : undefined;
    kit = await processingKit(pgDb ? { databaseUrl: pgDb.url } : {});
    use(kit);
  });
  afterEach(async () => {
    await kit?.close();
    await pgDb?.drop();
  });
}

export async function guest(kit: ProcessingKit): Promise<Principal> {
  const { token } = await kit.tokens.createGuest();
  return kit.tokens.resolve(token);
}

/** Stores an upload row + working blob as the upload service leaves them (status ready). */
export async function storeUpload(
  kit: ProcessingKit,
  accountId: number,
  bytes: Buffer,
  filename: string,
): Promise<string> {
  const meta = await sharp(bytes).metadata();
  const format = meta.format === 'png' ? 'png' : 'jpeg';
  const uid = randomUUID();
  const key = kit.deps.blobs.newKey('uploads', format === 'png' ? 'png' : 'jpg');
  await kit.deps.blobs.write(key, bytes);
  await kit.deps.db
    .insertInto('uploads')
    .values({
      uid,
      account_id: accountId,
      filename,
      filesize: bytes.length,
      w: meta.width ?? 0,
      h: meta.height ?? 0,
      format,
      job: '',
      blob_key: key,
      original_key: key,
      sha256: null,
      thumb_key: null,
      status: 'ready',
      total_blob_num: 1,
      received_bytes: bytes.length,
      source_url: null,
      created_at: Date.now(),
      deleted_at: null,
    })
    .execute();
  return uid;
}

/** Waits until the work leaves queued/running (the test's own timeout bounds the wait). */
export async function waitForEnd(kit: ProcessingKit, transId: string): Promise<Job> {
  for (;;) {
    const job = await kit.deps.db
      .selectFrom('jobs')
      .selectAll()
      .where('trans_id', '=', transId)
      .executeTakeFirstOrThrow();
    if (job.status === 'finished' || job.status === 'failed') return job;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function ledger(kit: ProcessingKit, transId: string) {
  return kit.deps.db
    .selectFrom('credit_ledger')
    .select(['kind', 'amount'])
    .where('ref', '=', transId)
    .orderBy('id')
    .execute();
}

export const fixture = (name: string) => fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures', name));

/** A large noisy JPEG (like a 16 MB camera file) made on the fly, so no big fixture is committed. */
export async function bigJpeg(width = 5640, height = 3172): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 95 })
    .toBuffer();
}
