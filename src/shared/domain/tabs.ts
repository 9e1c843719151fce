/** Which tab of the workspace lists a work (spec §4) and the text key of its status. */
import type { Work, WorkStatus } from './work.js';

export type WorksTab = 'uploaded' | 'processing' | 'processed';

/** Spec §4 tab filters (Processing: everything but finished, processFailed and ready — and failed uploads, which stay on Uploaded). */
export function inTab(status: WorkStatus, tab: WorksTab): boolean {
  switch (tab) {
    case 'processed':
      return status === 'finished' || status === 'processFailed';
    case 'uploaded':
      return (
        status === 'ready' ||
        status === 'uploading' ||
        status === 'waitingForNetwork' ||
        status === 'uploadFailed' ||
        status === 'imageTooLarge'
      );
    case 'processing':
      // A failed or refused upload never processed: it is listed (with its reason) on Uploaded only.
      return (
        status !== 'finished' &&
        status !== 'processFailed' &&
        status !== 'ready' &&
        status !== 'uploadFailed' &&
        status !== 'imageTooLarge'
      );
  }
}

export function worksInTab<T extends { status: WorkStatus }>(works: readonly T[], tab: WorksTab): T[] {
  return works.filter((w) => inTab(w.status, tab));
}

/**
 * A stored work whose job the server holds: on load its status comes from the server
 * (finish, progress, or unknown) before spec §4's reset-to-ready rule applies.
 */
export function asksServer(w: Pick<Work, 'transId' | 'status' | 'sample' | 'onDevice'>): boolean {
  return !!w.transId && !w.sample && !w.onDevice && w.status !== 'finished';
}

/**
 * A stored upload the server may hold a newer work for than this device knows (a tab closed a moment
 * after starting, before the work's trans_id arrived): on load it is looked up among the caller's
 * recent works (src/stores/processing.ts reconcileWithHistory).
 */
export function asksHistory(w: Pick<Work, 'uid' | 'transId' | 'status' | 'sample' | 'onDevice'>): boolean {
  return !!w.uid && !w.sample && !w.onDevice && (w.status === 'ready' || w.status === 'processFailed');
}

/** When a work was added to the list (dropped, or a sample picked); works stored before this field existed use their last update. */
function addedAt(w: Pick<Work, 'uploadStartTime' | 'updatedAt'>): number {
  return w.uploadStartTime ?? w.updatedAt;
}

/** The works list's one order: newest first, the same in the session and after a reload (a stable sort keeps equal times in place). */
export function newestFirst<T extends Pick<Work, 'uploadStartTime' | 'updatedAt'>>(works: readonly T[]): T[] {
  return [...works].sort((a, b) => addedAt(b) - addedAt(a));
}

/** Status text key for a work card (spec §4: uploading, ready, waiting; other failures read "upload failed"). */
export function statusKey(status: WorkStatus) {
  switch (status) {
    case 'resizing':
    case 'compressing':
    case 'uploading':
      return 'status.uploading';
    case 'waitingForNetwork':
      return 'status.waitingForNetwork';
    case 'ready':
      return 'status.ready';
    case 'waiting':
      return 'status.waiting';
    case 'processing':
      return 'status.processing';
    case 'finished':
      return 'status.finished';
    case 'processFailed':
      return 'status.processFailed';
    case 'imageTooLarge':
      return 'status.imageTooLarge';
    default:
      return 'status.uploadFailed';
  }
}
