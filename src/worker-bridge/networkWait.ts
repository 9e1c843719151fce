/**
 * Uploads parked while the browser is offline: kept in drop order, tried again on the `online` event,
 * a Background Sync message or a backing-off timer (the browser may not notice the network return).
 */

/** Retry delays for parked uploads when no `online` event comes. */
const OFFLINE_RETRY_MS = [2_000, 4_000, 8_000, 16_000, 30_000, 60_000] as const;

/**
 * How often an upload that came back from the park may be parked again by a network error before it
 * fails: the `online` event can come before the connection carries (a reconnect), not a dead server for good.
 */
export const NETWORK_REPARKS = 3;

/** The Background Sync tag; the service worker answers its sync event with a message of the same name. */
export const UPLOAD_SYNC_TAG = 'pixmill-uploads';

export const isOffline = (): boolean =>
  (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false;

export interface QueuedUpload {
  cid: string;
  sliced: boolean;
}

export class NetworkWait {
  private readonly parked: QueuedUpload[] = [];
  private retryTimer?: ReturnType<typeof setTimeout>;
  private retryStep = 0;

  /**
   * @param order drop order of a cid (parked uploads come back in it)
   * @param resume takes the parked uploads back, oldest first, once the network is there
   */
  constructor(
    private readonly order: (cid: string) => number,
    private readonly resume: (back: QueuedUpload[]) => void,
  ) {
    if (typeof addEventListener === 'function') addEventListener('online', () => this.retryNow());
  }

  get size(): number {
    return this.parked.length;
  }

  cids(): string[] {
    return this.parked.map((p) => p.cid);
  }

  /** Parks an upload and schedules a retry (Background Sync where the browser has it). */
  park(next: QueuedUpload): void {
    if (!this.parked.some((p) => p.cid === next.cid)) this.parked.push(next);
    this.parked.sort((a, b) => this.order(a.cid) - this.order(b.cid));
    requestSync();
    if (this.retryTimer) return;
    const delay = OFFLINE_RETRY_MS[Math.min(this.retryStep++, OFFLINE_RETRY_MS.length - 1)];
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (isOffline()) return void this.park(this.parked[0] ?? next);
      this.unpark();
    }, delay);
    (this.retryTimer as { unref?: () => void }).unref?.();
  }

  /** Drops a parked upload (cancelled). */
  remove(cid: string): void {
    const at = this.parked.findIndex((q) => q.cid === cid);
    if (at >= 0) this.parked.splice(at, 1);
  }

  retryNow(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.retryStep = 0;
    this.unpark();
  }

  private unpark(): void {
    if (!this.parked.length || isOffline()) return;
    this.resume(this.parked.splice(0));
  }
}

/** Background Sync: the service worker wakes the page when the network returns. */
function requestSync(): void {
  const sw = (globalThis as { navigator?: { serviceWorker?: ServiceWorkerContainer } }).navigator?.serviceWorker;
  void sw?.ready
    .then((reg) =>
      (reg as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync?.register(
        UPLOAD_SYNC_TAG,
      ),
    )
    .catch(() => undefined);
}
