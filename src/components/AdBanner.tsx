/** A closeable promotion banner; its dismissal is remembered for the session (spec §2). */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const key = (id: string) => `pixmill.banner.${id}`;

export function AdBanner({ id, children }: { id: string; children: ReactNode }) {
  const { t } = useTranslation();
  const [closed, setClosed] = useState(() => sessionStorage.getItem(key(id)) === '1');
  if (closed) return null;
  return (
    <div className="ad-banner" role="note" data-testid={`banner-${id}`}>
      <div className="ad-banner-body">{children}</div>
      <button
        className="icon-btn"
        aria-label={t('close')}
        onClick={() => {
          sessionStorage.setItem(key(id), '1');
          setClosed(true);
        }}
      >
        ✕
      </button>
    </div>
  );
}
