/**
 * Service-worker registration through workbox-window and the PWA state the UI shows: offline-ready,
 * update waiting. Call registerPwa() once at startup (idempotent).
 */
import { Workbox } from 'workbox-window';
import { UPDATE_CHECK_MS } from './updateCheck.js';

export interface PwaState {
  /** a new version is installed and waits for the user's go */
  needRefresh: boolean;
  /** the app shell is precached: reloads work without a network */
  offlineReady: boolean;
  registered: boolean;
}

let state: PwaState = { needRefresh: false, offlineReady: false, registered: false };
const listeners = new Set<() => void>();
let wb: Workbox | undefined;
let registering: Promise<ServiceWorkerRegistration | undefined> | undefined;
let reloadOnControl = false;

function set(patch: Partial<PwaState>): void {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

export function getPwaState(): PwaState {
  return state;
}

export function subscribePwa(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function registerPwa(swUrl = '/sw.js'): Promise<ServiceWorkerRegistration | undefined> {
  if (registering) return registering;
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || import.meta.env.DEV) {
    registering = Promise.resolve(undefined);
    return registering;
  }
  wb = new Workbox(swUrl, { scope: '/' });
  wb.addEventListener('waiting', () => set({ needRefresh: true }));
  wb.addEventListener('activated', (e) => {
    if (!e.isUpdate) set({ offlineReady: true });
  });
  wb.addEventListener('controlling', () => {
    if (reloadOnControl) window.location.reload();
  });
  registering = wb.register().then((reg) => {
    set({ registered: true, offlineReady: state.offlineReady || !!reg?.active });
    setInterval(() => void wb?.update(), UPDATE_CHECK_MS);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') void wb?.update();
    });
    return reg;
  });
  return registering;
}

/** The user accepted the update: activate the waiting worker, then reload under it. */
export function applyUpdate(): void {
  if (!wb) return;
  reloadOnControl = true;
  wb.messageSkipWaiting();
}

export function dismissUpdate(): void {
  set({ needRefresh: false });
}
