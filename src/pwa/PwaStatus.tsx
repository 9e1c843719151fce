/** "Update available" prompt (the offline banner is the shell's, src/app/Shell.tsx) (texts in locales/<lng>/pwa.json). */
import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { applyUpdate, dismissUpdate, getPwaState, registerPwa, subscribePwa } from './register.js';

function PwaStatus() {
  const { t } = useTranslation('pwa');
  const pwa = useSyncExternalStore(subscribePwa, getPwaState, getPwaState);
  // Mounting the status also makes sure the service worker is registered (registerPwa is idempotent).
  useEffect(() => void registerPwa().catch(() => undefined), []);
  return (
    <>
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
