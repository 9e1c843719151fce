/** Wires the PWA helper's upload manager into the works store (UploadEvent → Work). */
import { HIDE_API_BASE, waitForUserToken } from '../api/client.js';
import { pendingOriginals, resumableUploads } from '../db/lazy.js';
import { report, siteAjax } from '../api/endpoints.js';
import { uploadErrorText } from '../app/handleError.js';
import { uploadRefusalText } from '../shared/domain/uploadRefusals.js';
import type { Work } from '../shared/domain/work.js';
import { canSelect } from '../shared/domain/selection.js';
import { readPixelSize } from '../lib/imageSize.js';
import { sanitizeFilename } from '../shared/domain/filename.js';
import { getUploadManager, UPLOAD_SYNC_TAG } from '../worker-bridge/index.js';
import { dialogs } from './dialogs.js';
import { useUser } from './user.js';
import { useWorks } from './works.js';
import { useDeviceChoice } from './deviceChoice.js';
import { isOnDeviceFeature } from '../shared/domain/onDevice.js';

let manager: ReturnType<typeof getUploadManager> | undefined;
type UploadEventOf<M> = M extends { subscribe(l: (e: infer E) => void): unknown } ? E : never;
const early: Record<string, UploadEventOf<ReturnType<typeof getUploadManager>>[]> = {};
let applyEvent: (e: UploadEventOf<ReturnType<typeof getUploadManager>>) => void = () => undefined;

function uploads() {
  if (!manager) {
    manager = getUploadManager({ getToken: () => waitForUserToken(), apiBase: HIDE_API_BASE });
    applyEvent = (e) => {
      const { update, setProgress, works } = useWorks.getState();
      if (!works.some((w) => w.cid === e.cid)) {
        // The event beat the work into the store (add() resolves later): keep it until then.
        (early[e.cid] ??= []).push(e);
        return;
      }
      const patch: Partial<Work> = { status: e.status };
      if (e.uid) patch.uid = e.uid;
      if (e.filename) patch.filename = e.filename;
      if (e.filesize !== undefined) patch.filesize = e.filesize;
      if (e.w !== undefined) patch.w = e.w;
      if (e.h !== undefined) patch.h = e.h;
      if (e.thumbnail) patch.thumbnail = e.thumbnail;
      // Not stored on this device (storage full or refused): said on its card until the server has it.
      if (e.notKept) patch.notKept = true;
      else if (e.status === 'ready') patch.notKept = undefined;
      update(e.cid, patch);
      if (e.progress !== undefined) setProgress(e.cid, Math.round(e.progress * 100));
      // A failed upload says why (the server's refusal translated, or what the browser found), on
      // its card and in a dialog, instead of a bare "Upload failed".
      if (e.status === 'uploadFailed' || e.status === 'imageTooLarge') {
        const key = e.refusal ? uploadRefusalText(e.refusal).key : e.error;
        update(e.cid, { uploadError: key ?? 'upload:uploadFailed', selected: false });
        if (e.refusal || (e.error && e.error !== 'upload:network')) {
          const work = useWorks.getState().works.find((w) => w.cid === e.cid);
          const name = e.filename ?? work?.filename ?? '';
          dialogs.open({
            kind: 'message',
            tone: 'warning',
            message: `${name}: ${uploadErrorText({ ...e, size: { w: work?.sourceW, h: work?.sourceH } }, useUser.getState().level)}`,
          });
        }
      }
      // A new ready upload is selected while the plan's select limit has room (later uploads
      // landed unchecked and the button read "Start processing (0)").
      if (e.status === 'ready') selectIfRoom(e.cid);
      // A work kept on this device is ready without the server: nothing to tell it.
      if (e.status === 'ready' && works.find((w) => w.cid === e.cid)?.onDevice)
        for (const fn of readyListeners) fn(e.cid);
      else if (e.status === 'ready') {
        // Spec §7: after each upload, the site's credit-upload ajax post (its answer is unused).
        void siteAjax('credit_upload', e.uid ? { uid: e.uid } : {}).catch(() => undefined);
        for (const fn of readyListeners) fn(e.cid);
      }
    };
    manager.subscribe((e) => applyEvent(e));
    // Background Sync (public/sw-sync.js): the service worker says the network is back.
    const m = manager;
    navigator.serviceWorker?.addEventListener('message', (ev: MessageEvent) => {
      if ((ev.data as { type?: string } | null)?.type === UPLOAD_SYNC_TAG) m.retryNow();
    });
    void manager.resumePending().catch(() => undefined);
  }
  return manager;
}

/**
 * At startup, after the stored works are loaded: uploads a reload interrupted go on from the slices
 * the server acknowledged. The worker starts only when there is such an upload.
 */
export async function resumeInterruptedUploads(): Promise<void> {
  const [pending, picked] = await Promise.all([resumableUploads().catch(() => []), pendingOriginals().catch(() => [])]);
  if (pending.length || picked.length) uploads();
}

let persistAsked = false;
/**
 * Asks the browser once to keep this site's storage (navigator.storage.persist): a granted request
 * keeps the stored picks from being evicted under storage pressure. Where it is not granted, the
 * picks are still stored, within their share of the quota (src/shared/domain/keptOnDevice.ts).
 */
function askPersistedStorage(): void {
  if (persistAsked) return;
  persistAsked = true;
  void navigator.storage
    ?.persisted?.()
    .then((yes) => (yes ? true : navigator.storage.persist?.()))
    .catch(() => undefined);
}

/** Selects a ready work when the plan's select limit (spec §6 batch) has room; never a sample's selection rules. */
function selectIfRoom(cid: string): void {
  const { works, update } = useWorks.getState();
  const w = works.find((x) => x.cid === cid);
  if (!w || w.selected || w.status !== 'ready' || w.sample) return;
  // A work already processed once (its result kept) is not picked again by itself.
  if (w.transId) return;
  if (canSelect(works, cid, useUser.getState().level)) update(cid, { selected: true });
}

const readyListeners = new Set<(cid: string) => void>();
/** Notified when an upload becomes ready (guest first-use auto-select). */
export function onUploadReady(fn: (cid: string) => void): () => void {
  readyListeners.add(fn);
  return () => readyListeners.delete(fn);
}

const UPLOAD_ACTIVE = new Set(['resizing', 'compressing', 'uploading']);

/** Hands files to the upload manager; accepted files become works right away. */
export async function addFiles(
  files: File[],
  workType: string,
): Promise<{ rejected: { filename: string; error: string }[]; error?: string }> {
  const { level } = useUser.getState();
  const { works, add } = useWorks.getState();
  askPersistedStorage();
  // "Process on this device" for the three features it can run: kept here, never uploaded.
  const keepOnDevice = useDeviceChoice.getState().on && isOnDeviceFeature(workType);
  const ctx = {
    keepOnDevice,
    level,
    job: workType,
    queued: works.filter((w) => UPLOAD_ACTIVE.has(w.status)).length,
    perTypeCount: works.filter((w) => w.workType === workType && !w.sample && w.status !== 'finished').length,
  };
  const res = await uploads().add(files, ctx);
  const now = Date.now();
  // The dropped size is read from the header, so a shrink by the plan can be told and labelled.
  const fileOf = (name: string) => files.find((f) => f.name === name || sanitizeFilename(f.name) === name);
  const sources = await Promise.all(
    res.accepted.map((a) => {
      const f = fileOf(a.filename);
      return f ? readPixelSize(f) : null;
    }),
  );
  add(
    res.accepted.map((a, i) => ({
      cid: a.cid,
      filename: a.filename,
      filesize: fileOf(a.filename)?.size ?? 0,
      w: 0,
      h: 0,
      ...(sources[i] ? { sourceW: sources[i].w, sourceH: sources[i].h } : {}),
      status: 'resizing',
      selected: false,
      workType,
      ...(keepOnDevice ? { onDevice: true } : {}),
      // Files dropped together keep their drop order after a reload too: each later one a millisecond older.
      uploadStartTime: now - i,
      updatedAt: now,
    })),
  );
  for (const a of res.accepted) {
    for (const e of early[a.cid] ?? []) applyEvent(e);
    delete early[a.cid];
  }
  if (res.accepted.length) report('add_image', { count: res.accepted.length, job: workType });
  return { rejected: res.rejected, error: res.error };
}
