/**
 * "Process on this device" for a work whose image is stored here (dropped offline, or an upload that
 * failed): enlarge 2x, remove the background or compress in the image worker, the result downloaded as a file. Free and
 * local: no credits, nothing sent (README "Offline"). The first use says what it will download.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { onDeviceJob, onDeviceOptions, resultName, type OnDeviceOptions } from '../../shared/domain/onDevice.js';
import type { Work } from '../../shared/domain/work.js';
import {
  ON_DEVICE_DOWNLOAD_BYTES,
  onDeviceFirstUse,
  processOnDevice,
  type OnDeviceFeature,
} from '../../worker-bridge/index.js';

const FEATURES: readonly string[] = ['enlarge', 'matting', 'compress'] satisfies OnDeviceFeature[];
const LOCAL = new Set(['waitingForNetwork', 'uploadFailed']);
const USED_KEY = 'pixmill.onDeviceUsed';

/**
 * Only a work whose prepared image this device holds: one that was decoded and fitted here (it has its
 * size and thumbnail) and then waited for the network or failed to upload. A file refused while it was
 * prepared (damaged, not an image, too large) or cut off by a reload has nothing here to run: offering
 * the button there promised a result that could not come.
 */
export const canProcessOnDevice = (w: Work) =>
  !w.sample && LOCAL.has(w.status) && FEATURES.includes(w.workType) && w.w > 0 && w.h > 0 && !!w.thumbnail;

export function OnDeviceAction({ work }: { work: Work }) {
  const { t } = useTranslation('workspace');
  const [state, setState] = useState<{ phase: 'idle' | 'download' | 'run' | 'done' | 'failed'; pct: number }>({
    phase: 'idle',
    pct: 0,
  });
  const feature = work.workType as OnDeviceFeature;
  const firstUse = !localStorage.getItem(`${USED_KEY}.${feature}`);
  // The WASM figure until the worker says which runtime this device will load (WebGPU's is larger).
  const [bytes, setBytes] = useState(ON_DEVICE_DOWNLOAD_BYTES[feature]);
  useEffect(() => {
    if (!firstUse || bytes === 0) return;
    let live = true;
    onDeviceFirstUse(feature)
      .then((f) => live && setBytes(f.bytes))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [feature, firstUse, bytes]);
  const mb = (bytes / 1e6).toFixed(1);
  // Offline, the action is offered only when its model is already here (it offered a
  // 58.6 MB download it could not make).
  const [offline, setOffline] = useState(() => typeof navigator !== 'undefined' && navigator.onLine === false);
  const [cached, setCached] = useState<boolean | null>(feature === 'compress' ? true : null);
  useEffect(() => {
    // going offline asks the caches again (a first use may have stored its model since)
    const on = () => {
      setOffline(navigator.onLine === false);
      if (feature !== 'compress') void modelCached(feature).then(setCached);
    };
    window.addEventListener('online', on);
    window.addEventListener('offline', on);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', on);
    };
  }, [feature]);
  useEffect(() => {
    if (feature === 'compress') return;
    let live = true;
    void modelCached(feature).then((c) => live && setCached(c));
    return () => {
      live = false;
    };
  }, [feature, state.phase]);
  if (offline && cached === false)
    return (
      <span className="on-device" data-testid="on-device" data-phase="needs-online">
        <small>{t('onDevice.needsOnline', { mb: (ON_DEVICE_DOWNLOAD_BYTES[feature] / 1e6).toFixed(1) })}</small>
      </span>
    );

  const run = async () => {
    setState({ phase: 'run', pct: 0 });
    try {
      const res = await processOnDevice(
        feature,
        work.cid,
        (p) =>
          setState({ phase: p.phase === 'download' ? 'download' : 'run', pct: Math.round((p.loaded / p.total) * 100) }),
        pickedOptions(work),
      );
      localStorage.setItem(`${USED_KEY}.${feature}`, '1');
      const a = document.createElement('a');
      a.href = URL.createObjectURL(res.blob);
      a.download = resultName(work.filename, feature, res.blob.type);
      a.dataset.w = String(res.w);
      a.dataset.h = String(res.h);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
      setState({ phase: 'done', pct: 100 });
    } catch (e) {
      console.warn('on-device processing failed', e);
      setState({ phase: 'failed', pct: 0 });
    }
  };

  const busy = state.phase === 'download' || state.phase === 'run';
  return (
    <span className="on-device" data-testid="on-device" data-phase={state.phase}>
      <button
        className="btn small"
        onClick={() => void run()}
        disabled={busy}
        data-testid="process-on-device"
        title={t('onDevice.hint')}
      >
        {t('onDevice.run')}
      </button>
      {firstUse && state.phase === 'idle' && bytes > 0 && <small>{t('onDevice.firstDownload', { mb })}</small>}
      {busy && (
        <small role="status">
          {t(state.phase === 'download' ? 'onDevice.downloading' : 'onDevice.running', { pct: state.pct })}
        </small>
      )}
      {state.phase === 'done' && <small role="status">{t('onDevice.done')}</small>}
      {state.phase === 'failed' && <small role="status">{t('onDevice.failed')}</small>}
    </span>
  );
}

/**
 * Whether the feature's model is in the service worker's caches (the first use downloaded it): a
 * model file under /models/ — isnet-small for the cut-out, the enlarge net for enlarge.
 */
async function modelCached(feature: OnDeviceFeature): Promise<boolean> {
  if (feature === 'compress') return true;
  if (typeof caches === 'undefined') return false;
  try {
    for (const name of await caches.keys()) {
      const urls = (await (await caches.open(name)).keys())
        .map((r) => new URL(r.url).pathname)
        .filter((p) => p.startsWith('/models/') && p.endsWith('.onnx'));
      if (urls.some((p) => (feature === 'matting' ? p.includes('isnet') : !p.includes('isnet')))) return true;
    }
  } catch {
    // no cache storage here: not cached
  }
  return false;
}

/** The params the user picked for this work (enlarge's denoise/deblur, compress's quality), as the server would run them. */
const pickedOptions = (work: Work): OnDeviceOptions =>
  work.params ? onDeviceOptions(onDeviceJob(work.params as Parameters<typeof onDeviceJob>[0])) : {};
