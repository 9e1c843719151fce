/**
 * How much of this browser's storage the picked files may take (issue 47 point 4). A picked file is
 * stored as it was picked before it is prepared, so a reload cannot lose it; the originals are bounded
 * by the quota the browser grants (navigator.storage.estimate): one is kept only while the origin's
 * usage with it stays under this share of the quota, leaving the rest for the prepared files, results
 * and caches. A file that is not kept still uploads; its card says it will not survive a reload.
 */
export const ORIGINALS_QUOTA_SHARE = 0.8;

/** Whether a picked file of `bytes` may be stored, given the browser's estimate (no estimate: the browser decides). */
export function originalFits(bytes: number, estimate: { usage?: number; quota?: number } | undefined): boolean {
  if (!estimate?.quota) return true;
  return (estimate.usage ?? 0) + bytes <= estimate.quota * ORIGINALS_QUOTA_SHARE;
}
