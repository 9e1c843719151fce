import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { BatchProcess } from '../features/workspace/BatchProcess.js';
import { dialogs } from '../stores/dialogs.js';
import { useUser } from '../stores/user.js';
import { usePageTitle } from './usePageTitle.js';

export function WorkspacePage() {
  const { t } = useTranslation('workspace');
  const { pathname } = useLocation();
  usePageTitle(t('title'));
  const isUpload = pathname.includes('/upload/');
  // The Basic-vs-Pro comparison is an offer: not for someone on Pro already.
  const level = useUser((s) => s.level);
  return (
    <div className="container page-workspace">
      <div className="page-head">
        <h1>{t('title')}</h1>
        {isUpload && level !== 'pro' && (
          <button
            className="btn btn-secondary btn-sm"
            onClick={() => dialogs.open({ kind: 'compare' })}
            data-testid="open-compare"
          >
            {t('compare.open')}
          </button>
        )}
      </div>
      <BatchProcess />
    </div>
  );
}
