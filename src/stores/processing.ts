/** The processing runner of spec §4: queue, one at a time, 2 s polling, timeout, samples simulated. */
import { ApiError } from '../api/client.js';
import * as endpoints from '../api/endpoints.js';
import { CODE } from '../shared/domain/codes.js';
import { POLL_INTERVAL_MS, PROCESS_TIMEOUT_MS, SAMPLE_SIMULATION_MS } from '../shared/domain/constants.js';
import { isWorkflowJob, type JobConfig } from '../shared/domain/modules.js';
import { onDeviceJob } from '../shared/domain/onDevice.js';
import { asksHistory, asksServer } from '../shared/domain/tabs.js';
import { jobScale } from '../shared/domain/resultSize.js';
import { reasonOf } from '../shared/domain/refusal.js';
import { WORK_FAILURES, type HistoryRecord, type Work, type WorkFailure } from '../shared/domain/work.js';
import { i18n } from '../i18n/index.js';
import { dialogs } from './dialogs.js';
import { useUser } from './user.js';
import { saveWorksNow, useWorks } from './works.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let running = false;
const listeners = new Set<(w: Work) => void>();

/** Notified whenever a work reaches finished (the guest first-use sequence opens the preview). */
export function onFinished(fn: (w: Work) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export type StartResult = 'started' | 'noSelection' | 'workflowOnSample' | 'sampleFeature' | OnDeviceRefusal;
/** A work kept on this device and a job the device cannot run (an i18n key of the workspace namespace). */
type OnDeviceRefusal = 'onDevice.onlyFeatures' | 'onDevice.only2x';

/** Queues the selected ready works with this job and starts the runner. */
export function startProcessing(cfg: JobConfig): StartResult {
  const works = useWorks.getState().works.filter((w) => w.selected && w.status === 'ready');
  if (works.length === 0) return 'noSelection';
  if (isWorkflowJob(cfg.job) && works.some((w) => w.sample)) return 'workflowOnSample';
  // A sample's result image exists only for its own feature.
  if (works.some((w) => w.sample && w.workType !== cfg.job)) return 'sampleFeature';
  const device = works.some((w) => w.onDevice) ? onDeviceJob(cfg) : undefined;
  if (device && !device.ok) return device.reason;
  const params = cfg as Work['params'];
  for (const w of works) {
    useWorks.getState().setProgress(w.cid, 0);
    useWorks.getState().update(w.cid, {
      status: 'waiting',
      selected: false,
      checked: false,
      resultThumbnail: undefined,
      params,
      operation: cfg.job,
      workflow: 'name' in cfg ? cfg.name : undefined,
      // The result this work held before (if any): the server's record of a newer one is this start's.
      priorTransId: w.transId,
      startSent: false,
      transId: undefined,
      processed: false,
      processError: undefined,
    });
  }
  // Offline, the works wait for the network and start by themselves when it returns: said at once.
  if (offline() && works.some((w) => !w.sample && !w.onDevice)) dialogs.toast(i18n.t('workspace:startOffline'), 'info');
  if (!localStorage.getItem('pixmill.firstProcessReported')) {
    localStorage.setItem('pixmill.firstProcessReported', '1');
    endpoints.report('first_image_process', { job: cfg.job });
  }
  void pump();
  return 'started';
}

/** The browser says there is no network (tests in node: online). */
const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;
const backOnline = () => new Promise<void>((resolve) => addEventListener('online', () => resolve(), { once: true }));

/**
 * Runs the waiting works one at a time, oldest start first. Offline, a work for the server waits (its
 * card says it waits for the network) and starts when the network returns; samples and works kept on
 * this device run meanwhile.
 */
async function pump(): Promise<void> {
  if (running) return;
  running = true;
  try {
    for (;;) {
      const waiting = useWorks.getState().works.filter((w) => w.status === 'waiting');
      if (waiting.length === 0) break;
      const next = offline() ? waiting.filter((w) => w.sample || w.onDevice).at(-1) : waiting.at(-1);
      if (!next) {
        await backOnline();
        continue;
      }
      await runOne(next);
    }
  } finally {
    running = false;
  }
}

/**
 * Started means started (issue 47): works a reload found waiting (src/db resumeStarted) go on, in the
 * order they were started. Called once the stored works are loaded.
 */
function resumeStartedWorks(): void {
  if (useWorks.getState().works.some((w) => w.status === 'waiting')) void pump();
}

/** A start's Idempotency-Key (Work.startKey): random, one per start of a card. */
const newStartKey = (): string => `start-${crypto.randomUUID()}`;

/**
 * A start that was on its way when the page went away (startSent): the server's newest work of this
 * upload, when it is newer than the work's previous result, is this start's (no new start, no new charge).
 */
async function startOnServer(work: Work): Promise<HistoryRecord | undefined> {
  if (!work.startSent || !work.uid) return undefined;
  const recent = (await endpoints.history(1, RECONCILE_RECENT)).datas;
  const newest = recent.find((r) => r.uid === work.uid);
  return newest && newest.trans_id !== work.priorTransId ? newest : undefined;
}

function finish(cid: string, patch: Partial<Work>): void {
  const { update, bumpSuccess, setProgress } = useWorks.getState();
  update(cid, { status: 'finished', processed: true, endTime: Date.now(), ...patch });
  setProgress(cid, 100);
  bumpSuccess();
  const w = useWorks.getState().works.find((x) => x.cid === cid);
  if (w) for (const fn of listeners) fn(w);
  void import('./resultThumb.js').then((m) => m.makeResultThumbnail(cid)).catch(() => undefined);
}

async function runOne(work: Work): Promise<void> {
  const { update, setProgress, remove } = useWorks.getState();
  const startTime = Date.now();
  update(work.cid, { status: 'processing', startTime });
  setProgress(work.cid, 0);

  if (work.onDevice) {
    const exists = (cid: string) => useWorks.getState().works.some((w) => w.cid === cid);
    // loaded on first use: the device run brings the local database and the worker bridge
    const { runOnDevice } = await import('./onDeviceRun.js');
    // A card deleted while it runs stops the worker's run (issue 50 point 7).
    const ctrl = new AbortController();
    const stop = useWorks.subscribe((s) => {
      if (!s.works.some((w) => w.cid === work.cid)) ctrl.abort(new DOMException('Cancelled', 'AbortError'));
    });
    try {
      return await runOnDevice(work, { update, setProgress, finish, exists, signal: ctrl.signal });
    } finally {
      stop();
    }
  }

  if (work.sample) {
    // Spec §4: sample works are simulated for 4 seconds, using the preset result image.
    const ticks = 8;
    for (let i = 1; i <= ticks; i++) {
      await sleep(SAMPLE_SIMULATION_MS / ticks);
      setProgress(work.cid, Math.round((i / ticks) * 100));
    }
    const scale = jobScale(work.params);
    const face = work.params?.config?.module_params?.single_face === true ? 1 : 2;
    const target = (work.targetImg ?? '').replaceAll('{scale}', String(work.workType === 'portrait' ? face : scale));
    finish(work.cid, { targetImg: target, zoomTargetImg: target });
    return;
  }

  if (!work.uid) {
    // Reset to ready on load (spec §4) although the server never received it: nothing to start.
    update(work.cid, { status: 'uploadFailed', endTime: Date.now() });
    dialogs.toast(i18n.t('upload:notOnServer'), 'error');
    return;
  }
  let transId: string;
  try {
    // A start a reload cut off on its way: the server's record says whether it arrived.
    const taken = await startOnServer(work);
    if (taken) return adoptRecord(work, taken);
    // The card is stored with its upload, marked as being sent, before the server takes the work
    // (saveWorksNow): a reload from here on asks the server's record before sending it again, and sends
    // it with the same Idempotency-Key (startKey), so a start still on the wire is not started twice.
    const startKey = work.startKey ?? newStartKey();
    update(work.cid, { startSent: true, startKey });
    await saveWorksNow().catch((e) => console.warn('local save failed', e));
    transId = (
      await endpoints.transform(
        work.uid,
        work.params ?? { job: 'denoise' },
        work.operation === 'matting' ? 'large' : undefined,
        startKey,
      )
    ).trans_id;
  } catch (e) {
    // Answered with a refusal: this start is over, the next start of the card gets its own key.
    if (e instanceof ApiError) update(work.cid, { startKey: undefined });
    // The network went away: the work waits for it (the server's record is asked before it is sent again).
    if (!(e instanceof ApiError) && offline()) return void update(work.cid, { status: 'waiting' });
    if (e instanceof ApiError && e.code === CODE.INSUFFICIENT_CREDITS) {
      // Spec §8: credits 0, level expired, work removed; the rest of the queue goes back to ready.
      useUser.getState().markExhausted();
      remove([work.cid]);
      for (const w of useWorks.getState().works) if (w.status === 'waiting') update(w.cid, { status: 'ready' });
      dialogs.open({ kind: 'insufficientCredits' });
      return;
    }
    // A refusal with a reason the card can say (the result would pass the largest side) is kept on the card.
    const reason = e instanceof ApiError ? reasonOf(e.data)?.reason : undefined;
    update(work.cid, {
      status: 'processFailed',
      endTime: Date.now(),
      ...(isWorkFailure(reason) ? { processError: reason } : {}),
    });
    if (!(e instanceof ApiError)) dialogs.toast(i18n.t('errors:network'), 'error');
    return;
  }
  update(work.cid, { transId, startSent: false, startKey: undefined });
  await saveWorksNow().catch((e) => console.warn('local save failed', e));
  void endpoints.siteAjax('credit_transform', { trans_id: transId }).catch(() => undefined);
  await pollUntilDone(work.cid, transId, startTime, isWorkflowJob(work.params?.job));
}

/** Polls a started job every 2 s until the server says finish or fatal (spec §4), or the client timeout. */
async function pollUntilDone(cid: string, transId: string, startTime: number, isWorkflow: boolean): Promise<void> {
  const { update, setProgress } = useWorks.getState();
  for (;;) {
    await sleep(POLL_INTERVAL_MS);
    const current = useWorks.getState().works.find((w) => w.cid === cid);
    if (!current || current.transId !== transId) return; // deleted or started again meanwhile
    if (!isWorkflow && Date.now() - startTime > PROCESS_TIMEOUT_MS) {
      update(cid, { status: 'processFailed', endTime: Date.now(), processError: 'processTimeout' });
      return;
    }
    let p: endpoints.ProgressData;
    try {
      p = await endpoints.progress(transId);
    } catch {
      continue; // a lost poll is retried at the next tick
    }
    if (p.status === 'finish') {
      finish(cid, resultDims(p));
      void useUser
        .getState()
        .refreshCredits()
        .catch(() => undefined);
      return;
    }
    if (p.status === 'fatal') {
      update(cid, { status: 'processFailed', endTime: Date.now(), processError: p.reason ?? 'processFailed' });
      return;
    }
    if (typeof p.progress === 'number') setProgress(cid, p.progress);
    if (typeof p.seconds_left === 'number') useWorks.getState().setTimeLeft(cid, p.seconds_left);
  }
}

function resultDims(p: endpoints.ProgressData | HistoryRecord): Partial<Work> {
  return {
    ...(typeof p.result_w === 'number' && typeof p.result_h === 'number'
      ? { zoomW: p.result_w, zoomH: p.result_h }
      : {}),
    ...(p.enlarge_path ? { enlargePath: p.enlarge_path } : {}),
  };
}

/** A start the server had taken before a reload: finished, failed or still running, as its record says. */
async function adoptRecord(work: Work, r: HistoryRecord): Promise<void> {
  const { update } = useWorks.getState();
  update(work.cid, { transId: r.trans_id, startSent: false, startKey: undefined, operation: work.operation ?? r.job });
  if (r.status === 'finished') return finish(work.cid, resultDims(r));
  // Failed while the page was away: ready again with the reason (spec §4), as the server's record says.
  if (r.status === 'failed')
    return void update(work.cid, {
      status: 'ready',
      transId: undefined,
      priorTransId: r.trans_id,
      processError: r.reason ?? 'processFailed',
    });
  await pollUntilDone(work.cid, r.trans_id, Date.now(), isWorkflowJob(work.params?.job));
}

const isWorkFailure = (r: unknown): r is WorkFailure => (WORK_FAILURES as readonly unknown[]).includes(r);

/**
 * On load: every stored work that has a trans_id asks the server before the spec's
 * reset-to-ready rule applies. finish -> Processed with its result (no new start, no new charge);
 * progress -> keeps polling; fatal -> ready with the reason it failed on the card; unknown to the
 * server (deleted, expired, another account) -> ready, as spec §4 resets it. A network failure keeps
 * asking at the polling interval. Then the uploads without a trans_id are reconciled with the
 * server's record of the caller's recent works (reconcileWithHistory).
 */
export async function reconcileStored(): Promise<void> {
  const pending = useWorks.getState().works.filter(asksServer);
  resumeStartedWorks();
  await Promise.all([...pending.map((w) => reconcileOne(w.cid, w.transId as string, w)), reconcileWithHistory()]);
}

/** Recent works asked for on load (one page of GET /api/job/record, newest first). */
const RECONCILE_RECENT = 50;

/**
 * The server is the record: a work started a moment before its tab closed (its trans_id never
 * reached this device) is found by its upload among the caller's recent works. The newest work of
 * an upload that the card does not hold yet is taken: finished -> Processed with its result,
 * queued or running -> polled, failed -> ready with its reason. No start, no charge.
 */
async function reconcileWithHistory(): Promise<void> {
  if (!useWorks.getState().works.some(asksHistory)) return;
  let recent: HistoryRecord[];
  try {
    recent = (await endpoints.history(1, RECONCILE_RECENT)).datas;
  } catch {
    return; // offline or refused: the stored state stands until the next load
  }
  const newest = new Map<string, HistoryRecord>();
  for (const r of recent) if (!newest.has(r.uid)) newest.set(r.uid, r);
  const { update, setProgress, bumpSuccess } = useWorks.getState();
  for (const w of useWorks.getState().works) {
    const r = w.uid ? newest.get(w.uid) : undefined;
    if (!r || !asksHistory(w) || r.trans_id === w.transId || r.expired) continue;
    const known = { operation: w.operation ?? r.job };
    if (r.status === 'finished') {
      update(w.cid, {
        ...known,
        status: 'finished',
        processed: true,
        selected: false,
        transId: r.trans_id,
        processError: undefined,
        endTime: r.finished_at ?? Date.now(),
        ...resultDims(r),
      });
      setProgress(w.cid, 100);
      bumpSuccess();
      void import('./resultThumb.js').then((m) => m.makeResultThumbnail(w.cid)).catch(() => undefined);
    } else if (r.status === 'failed') {
      if (w.processError !== (r.reason ?? 'processFailed'))
        update(w.cid, { ...known, processError: r.reason ?? 'processFailed' });
    } else {
      update(w.cid, { ...known, status: 'processing', selected: false, transId: r.trans_id });
      void pollUntilDone(w.cid, r.trans_id, Date.now(), isWorkflowJob(r.job));
    }
  }
}

async function reconcileOne(cid: string, transId: string, work: Work): Promise<void> {
  const { update, setProgress } = useWorks.getState();
  let p: endpoints.ProgressData | undefined;
  try {
    p = await endpoints.progress(transId);
  } catch (e) {
    if (!(e instanceof ApiError)) {
      // Offline or a lost answer: keep asking at the polling interval (no timeout: the job started earlier).
      return pollUntilDone(cid, transId, Number.POSITIVE_INFINITY, true);
    }
  }
  const still = useWorks.getState().works.find((w) => w.cid === cid);
  if (!still || still.transId !== transId) return;
  if (p?.status === 'finish') {
    const { bumpSuccess } = useWorks.getState();
    update(cid, { status: 'finished', processed: true, endTime: still.endTime ?? Date.now(), ...resultDims(p) });
    setProgress(cid, 100);
    bumpSuccess();
    void import('./resultThumb.js').then((m) => m.makeResultThumbnail(cid)).catch(() => undefined);
    return;
  }
  if (p && p.status !== 'fatal') {
    update(cid, { status: 'processing' });
    if (typeof p.progress === 'number') setProgress(cid, p.progress);
    // The client timeout counts from now: the page was away while the server worked.
    return pollUntilDone(cid, transId, Date.now(), isWorkflowJob(work.params?.job));
  }
  // A failed work comes back ready (spec §4) with the reason it failed, never as a plain "Ready".
  update(cid, {
    status: 'ready',
    transId: undefined,
    processed: false,
    processError: p?.status === 'fatal' ? (p.reason ?? 'processFailed') : undefined,
  });
}
