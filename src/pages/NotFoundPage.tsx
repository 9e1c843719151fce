import { useTranslation } from 'react-i18next';
import { L } from '../app/lang.js';
import { usePageTitle } from './usePageTitle.js';

export function NotFoundPage() {
  const { t } = useTranslation('site');
  usePageTitle(t('notFound.title'));
  return (
    <div className="container page center">
      <h1>{t('notFound.title')}</h1>
      <p className="muted">{t('notFound.text')}</p>
      <L to="/" className="btn btn-primary">
        {t('notFound.home')}
      </L>
    </div>
  );
}
