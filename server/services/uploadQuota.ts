/**
 * Upload quotas per level (src/shared/domain/plans.ts UPLOAD_QUOTAS): uploads started a minute and bytes of
 * uploads kept. Checked once cheaply before the work and again under the account's lock in the
 * transaction that inserts, so a burst of concurrent uploads cannot all slip under the limit.
 */
import { GUEST_BYTES_WINDOW_MS } from '../../src/shared/domain/fairUse.js';
import { UPLOAD_QUOTAS, type Level } from '../../src/shared/domain/plans.js';
import { paramError, refused } from '../errors.js';
import { currentAddressGroup } from '../clientAddress.js';
import { spendAddressBytes } from '../repositories/addressBudgetRepository.js';
import type { Db } from '../repositories/db.js';
import { lockAccount, quotaUsage } from '../repositories/uploadRepository.js';

const MINUTE_MS = 60_000;

function formatBytes(n: number): string {
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

/**
 * Bytes received without an account, per client address group and clock hour (GUEST_BYTES_PER_HOUR):
 * a guest's own quota holds per guest token, and one address can take a new token whenever it likes.
 * Counted when the bytes arrive (a whole file, each slice), before they are stored; refused with 429
 * `guestBytesPerHour` (data: mb, retry_after seconds to the next hour) once the hour's budget is spent.
 * Accounts are held by their own quotas; a request without a known address (no HTTP) is not counted.
 */
export async function spendGuestBytes(
  db: Db,
  p: { level: Level },
  bytes: number,
  perHour: number,
  now = Date.now(),
): Promise<void> {
  if (p.level !== 'guest') return;
  const key = currentAddressGroup();
  if (!key) return;
  const windowStart = now - (now % GUEST_BYTES_WINDOW_MS);
  if (!(await spendAddressBytes(db, key, windowStart, GUEST_BYTES_WINDOW_MS, bytes, perHour)))
    throw refused(
      {
        reason: 'guestBytesPerHour',
        mb: Math.round(perHour / 1024 ** 2),
        retry_after: Math.ceil((windowStart + GUEST_BYTES_WINDOW_MS - now) / 1000),
      },
      429,
    );
}
