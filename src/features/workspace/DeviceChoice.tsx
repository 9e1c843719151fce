/**
 * "Process on this device", where the user starts a work: a remembered switch that keeps new
 * works of the three on-device features in the browser (never uploaded) and runs them in the image worker.
 * Says what it costs before the first use: the download size on this device (WebGPU or WASM runtime +
 * model) and that it is free, at the guest's image limits. Rules: src/shared/domain/onDevice.ts.
 */
import { FEATURE_MODEL, modelUrl } from '../../shared/onDeviceModels.js';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isOnDeviceFeature, ON_DEVICE_LEVEL } from '../../shared/domain/onDevice.js';
import { limitsFor } from '../../shared/domain/plans.js';
import { formatNumber } from '../../shared/domain/locale.js';
import { useLang } from '../../app/lang.js';
import { useDeviceChoice } from '../../stores/deviceChoice.js';
import { usePanel } from '../../stores/panel.js';
import { onDeviceFirstUse } from '../../worker-bridge/index.js';

/** The service worker's cache of models and runtimes (vite.config.ts workbox runtimeCaching). */
const MODELS_CACHE = 'pixmill-models';

async function alreadyDownloaded(feature: 'enlarge' | 'matting'): Promise<boolean> {
  if (typeof caches === 'undefined') return false;
  const hit = await caches
    .open(MODELS_CACHE)
    .then((c) => c.match(modelUrl(FEATURE_MODEL[feature])))
    .catch(() => undefined);
  return Boolean(hit);
}

export function DeviceChoice() {
  const { t } = useTranslation('workspace');
  const lng = useLang();
  const { on, load, set } = useDeviceChoice();
  const module = usePanel((s) => (s.tab === 'feature' ? s.feature.config.module : 'workflow'));
  const [firstUse, setFirstUse] = useState<{ feature: string; mb: string; provider: string } | null>(null);

  useEffect(() => void load(), [load]);

  useEffect(() => {
    setFirstUse(null);
    if (!on || (module !== 'enlarge' && module !== 'matting')) return;
    let live = true;
    void (async () => {
      if (await alreadyDownloaded(module)) return;
      const f = await onDeviceFirstUse(module);
      if (live)
        setFirstUse({ feature: module, mb: formatNumber(Math.round(f.bytes / 1e5) / 10, lng), provider: f.provider });
    })().catch((e) => console.warn('on-device download size unknown', e));
    return () => {
      live = false;
    };
  }, [on, module, lng]);

  if (!isOnDeviceFeature(module)) {
    return on ? (
      <p className="note device-choice-off" data-testid="device-choice-server-only">
        {t('deviceChoice.serverOnly')}
      </p>
    ) : null;
  }
  const lim = limitsFor(ON_DEVICE_LEVEL);
  return (
    <div className={`device-choice ${on ? 'on' : ''}`} data-testid="device-choice">
      <label className="device-choice-toggle">
        <input
          type="checkbox"
          role="switch"
          checked={on}
          onChange={(e) => set(e.target.checked)}
          data-testid="device-choice-toggle"
        />
        <span>{t('deviceChoice.label')}</span>
      </label>
      {on && (
        <p className="note" data-testid="device-choice-note">
          {t('deviceChoice.terms', {
            mp: formatNumber(lim.maxMegapixels, lng),
            mb: Math.round(lim.maxFileBytes / 1048576),
          })}
          {firstUse?.feature === module && (
            <>
              {' '}
              <span data-testid="device-choice-download">
                {t(firstUse.provider === 'webgpu' ? 'deviceChoice.downloadGpu' : 'deviceChoice.download', {
                  mb: firstUse.mb,
                })}
              </span>
            </>
          )}
        </p>
      )}
    </div>
  );
}
