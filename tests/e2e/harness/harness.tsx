/**
 * Test page for the browser tests and the client benchmark: drives the real upload manager, Dexie and
 * service worker the way the workspace does, with a minimal list. Not part of the product (not precached).
 * Query: level=guest|register|basic|pro|expired, job=<feature>, main=1 (no worker), compare=1.
 */
import * as Comlink from 'comlink';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { CODE, type Envelope } from '../../../src/shared/domain/codes.js';
import { LEVELS, type Level } from '../../../src/shared/domain/plans.js';
import type { Work } from '../../../src/shared/domain/work.js';
import type { OnDeviceOptions } from '../../../src/shared/domain/onDevice.js';
import { i18n } from '../../../src/i18n/index.js';
import { ROUTE_TABLE } from '../../../src/shared/routeTable.js';
import { loadWorks, putWorks } from '../../../src/db/index.js';
import { getUploadManager, processOnDevice, type UploadEvent } from '../../../src/worker-bridge/index.js';
import HoldToCompare from '../../../src/pwa/HoldToCompare.js';
import PwaStatus from '../../../src/pwa/PwaStatus.js';
import { registerPwa } from '../../../src/pwa/register.js';
import { fit } from './fit.js';
import type { FitWorkerApi } from './fitWorker.js';

const q = new URLSearchParams(location.search);
const level: Level = (LEVELS as readonly string[]).includes(q.get('level') ?? '') ? (q.get('level') as Level) : 'guest';
const job = q.get('job') ?? 'enlarge';
const mainThread = q.get('main') === '1';

async function getToken(): Promise<string> {
  const saved = localStorage.getItem('harness-token');
  if (saved) return saved;
  const res = await fetch(ROUTE_TABLE.GuestToken[1], { method: 'POST' });
  const env = (await res.json()) as Envelope<{ token: string }>;
  if (env.code !== CODE.OK) throw new Error('no guest token');
  localStorage.setItem('harness-token', env.data.token);
  return env.data.token;
}

const events: UploadEvent[] = [];
const longTasks: { start: number; duration: number }[] = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
} catch {
  // no longtask support: the test will see an empty list and say so
}

const manager = getUploadManager({ getToken, apiBase: '', forceMainThread: mainThread });

let fitWorker: Comlink.Remote<FitWorkerApi> | undefined;
/** decode + fit + thumbnail (./fit.ts) in the harness's own worker, or on the page with main=1; says where it ran. */
async function fitFile(file: File, lvl: Level, jb: string) {
  if (mainThread) return { ...(await fit(file, lvl, jb)), runtime: 'main' as const };
  fitWorker ??= Comlink.wrap<FitWorkerApi>(
    new Worker(new URL('./fitWorker.ts', import.meta.url), { type: 'module', name: 'harness-fit' }),
  );
  return { ...(await fitWorker.fit(file, lvl, jb)), runtime: 'worker' as const };
}
const works = new Map<string, Work>();
let render: () => void = () => {};

function apply(e: UploadEvent): void {
  events.push(e);
  const w = works.get(e.cid);
  const now = Date.now();
  const next: Work = {
    ...(w ?? {
      cid: e.cid,
      filename: e.filename ?? '',
      filesize: 0,
      w: 0,
      h: 0,
      selected: false,
      workType: job,
      status: e.status,
      updatedAt: now,
    }),
    status: e.status,
    updatedAt: now,
  };
  for (const k of ['uid', 'filename', 'filesize', 'w', 'h', 'thumbnail'] as const)
    if (e[k] !== undefined) (next as unknown as Record<string, unknown>)[k] = e[k];
  works.set(e.cid, next);
  void putWorks([next]);
  render();
}
manager.subscribe(apply);

const harness = {
  level,
  job,
  events,
  longTasks,
  works: () => [...works.values()],
  runtime: () => manager.runtime(),
  add: (files: File[]) => manager.add(files, { level, job, queued: 0, perTypeCount: 0 }),
  cancel: (cid: string) => manager.cancel(cid),
  /** decode + fit + thumbnail for a plan, nothing stored or sent (upload-guest.spec.ts, bench/client.ts) */
  fit: fitFile,
  /** on-device enlarge 2x / background removal through the bridge, as the workspace runs it (bench/ondevice.ts) */
  onDevice: (feature: 'enlarge' | 'matting', file: Blob, options?: OnDeviceOptions) =>
    processOnDevice(feature, file, undefined, options),
  ready: false,
};
(window as unknown as { __harness: typeof harness }).__harness = harness;

function App() {
  const [, setTick] = useState(0);
  const [messages, setMessages] = useState<string[]>([]);
  useEffect(() => {
    render = () => setTick((t) => t + 1);
    void (async () => {
      for (const w of await loadWorks()) works.set(w.cid, w);
      render();
      await manager.resumePending();
      harness.ready = true;
      render();
    })();
    void registerPwa().catch(() => undefined);
  }, []);
  const onFiles = async (files: File[]) => {
    const res = await manager.add(files, { level, job, queued: 0, perTypeCount: 0 });
    setMessages([...(res.error ? [res.error] : []), ...res.rejected.map((r) => `${r.filename}: ${r.error}`)]);
    for (const a of res.accepted)
      if (!works.has(a.cid)) apply({ cid: a.cid, status: 'resizing', filename: a.filename });
  };
  return (
    <main data-ready={harness.ready ? '1' : '0'}>
      <PwaStatus />
      <h1>
        Upload harness ({level}, {job})
      </h1>
      <input
        type="file"
        multiple
        data-testid="file-input"
        onChange={(e) => void onFiles([...(e.target.files ?? [])])}
      />
      <ul data-testid="messages">
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
      <ul data-testid="works">
        {[...works.values()].map((w) => (
          <li
            key={w.cid}
            data-cid={w.cid}
            data-status={w.status}
            data-uid={w.uid ?? ''}
            data-w={w.w}
            data-h={w.h}
            data-filesize={w.filesize}
          >
            {w.thumbnail && <img src={w.thumbnail} alt="" width={40} height={40} />} {w.filename} — {w.status}
          </li>
        ))}
      </ul>
      {q.get('compare') === '1' && <Compare />}
    </main>
  );
}

/** Two distinguishable images drawn here, so the hold-to-compare test can tell them apart. */
function Compare() {
  const [srcs, setSrcs] = useState<[string, string]>();
  useEffect(() => {
    const draw = (color: string) => {
      const c = document.createElement('canvas');
      c.width = 320;
      c.height = 180;
      const g = c.getContext('2d')!;
      g.fillStyle = color;
      g.fillRect(0, 0, 320, 180);
      return c.toDataURL('image/png');
    };
    setSrcs([draw('#808080'), draw('#ff0000')]);
  }, []);
  if (!srcs) return null;
  return <HoldToCompare beforeSrc={srcs[0]} afterSrc={srcs[1]} style={{ width: 320, height: 220 }} />;
}

createRoot(document.getElementById('root')!).render(
  <I18nextProvider i18n={i18n}>
    <App />
  </I18nextProvider>,
);
