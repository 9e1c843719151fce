import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ALL_PATHS } from '../shared/sitemap.js';
import { LANGUAGES } from '../shared/domain/locale.js';
import { localizedPath } from '../shared/domain/links.js';
import { useLang } from '../app/lang.js';
import { usePageTitle } from './usePageTitle.js';

export function SitemapPage() {
  const { t } = useTranslation('site');
  const lng = useLang();
  usePageTitle(t('sitemap.title'));
  return (
    <div className="container page">
      <h1>{t('sitemap.title')}</h1>
      <ul className="sitemap" data-testid="sitemap">
        {ALL_PATHS.map((p) => (
          <li key={p}>
            <Link to={localizedPath(p, lng)}>{p}</Link>
            <span className="alt-links">
              {LANGUAGES.filter((l) => l !== lng).map((l) => (
                <Link key={l} to={localizedPath(p, l)} hrefLang={l}>
                  {l}
                </Link>
              ))}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
