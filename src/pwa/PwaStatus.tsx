/** Offline notice and "update available" prompt (texts in locales/<lng>/pwa.json). */
import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { applyUpdate, dismissUpdate, getPwaState, registerPwa, subscribePwa } from './register.js';

function subscribeOnline(cb: () => void): () => void {
  window.addEventListener('online', cb);
  window.addEventListener('offline', cb);
  return () => {
    window.removeEventListener('online', cb);
    window.removeEventListener('offline', cb);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, () => navigator.onLine, () => true);
}

export function PwaStatus() {
  const { t } = useTranslation('pwa');
  const online = useOnline();
  const pwa = useSyncExternalStore(subscribePwa, getPwaState, getPwaState);
  // Mounting the status also makes sure the service worker is registered (registerPwa is idempotent).
  useEffect(() => void registerPwa().catch(() => undefined), []);
  return (
    <>
      {!online && (
        <div className="pwa-offline" role="status" data-testid="pwa-offline">
          {t('offline')}
        </div>
      )}
      {pwa.needRefresh && (
        <div className="pwa-update" role="alert" data-testid="pwa-update">
          <span>{t('updateAvailable')}</span>
          <button type="button" onClick={applyUpdate}>
            {t('reload')}
          </button>
          <button type="button" onClick={dismissUpdate}>
            {t('dismiss')}
          </button>
        </div>
      )}
    </>
  );
}

export default PwaStatus;
