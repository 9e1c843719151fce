/**
 * Upload quotas per level (src/shared/domain/plans.ts UPLOAD_QUOTAS): uploads started a minute and bytes of
 * uploads kept. Checked once cheaply before the work and again under the account's lock in the
 * transaction that inserts, so a burst of concurrent uploads cannot all slip under the limit.
 */
import { UPLOAD_QUOTAS, type Level } from '../../src/shared/domain/plans.js';
import { paramError } from '../errors.js';
import type { Db } from '../repositories/db.js';
import { lockAccount, quotaUsage } from '../repositories/uploadRepository.js';

const MINUTE_MS = 60_000;

export function formatBytes(n: number): string {
  const gb = n / 1024 ** 3;
  return gb >= 1 ? `${+gb.toFixed(1)} GB` : `${Math.round(n / 1024 ** 2)} MB`;
}

export interface QuotaNeed {
  /** this request starts an upload (counts against uploads a minute) */
  newUpload: boolean;
  /** bytes this request adds to what is kept */
  bytes: number;
  /** take the account's lock first (inside the inserting transaction) */
  lock?: boolean;
}

/** Refuses with 10001 and its reason (uploadRateLimited, storageFull) when `need` would pass the caller's quota. */
export async function checkUploadQuota(
  db: Db,
  p: { accountId: number; level: Level },
  need: QuotaNeed,
  now = Date.now(),
): Promise<void> {
  if (need.lock) await lockAccount(db, p.accountId);
  const quota = UPLOAD_QUOTAS[p.level];
  const used = await quotaUsage(db, p.accountId, now - MINUTE_MS);
  if (need.newUpload && used.recent >= quota.uploadsPerMinute)
    throw paramError('uploadRateLimited', { max: quota.uploadsPerMinute });
  if (used.storedBytes + need.bytes > quota.storedBytes)
    throw paramError('storageFull', { limit: formatBytes(quota.storedBytes), bytes: quota.storedBytes });
}
