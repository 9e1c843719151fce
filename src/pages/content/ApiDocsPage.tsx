/** API docs: the server's real route table (apiRoutes.json, written by scripts/api-docs.ts from the Fastify routes). */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../usePageTitle.js';
import { EnglishOnly } from './Article.js';
import docs from './apiRoutes.json';
import './content.css';

interface ApiRoute {
  method: string;
  path: string;
  group: string;
  fields: string[];
  perMinute?: number;
}

const ROUTES = docs.routes as ApiRoute[];

export function ApiDocsPage() {
  const { t } = useTranslation('site');
  const title = t('content.api_docs.title');
  usePageTitle(title);
  return (
    <article className="container page prose content-article" data-testid="api-docs">
      <h1>{title}</h1>
      <p className="lead">{t('content.api_docs.body')}</p>
      <p className="muted small" data-testid="api-count">
        {t('content.api_docs.count', { count: ROUTES.length })}
      </p>
      <EnglishOnly />
      {docs.groups.map((g) => (
        <section key={g.group} className="api-group" id={`api-${g.group}`} aria-labelledby={`api-${g.group}-h`}>
          <h2 id={`api-${g.group}-h`}>
            <code>{g.group}</code>
          </h2>
          <p lang="en">{g.about}</p>
          <div className="table-scroll">
            <table className="api-table">
              <thead>
                <tr>
                  <th>{t('content.api_docs.method')}</th>
                  <th>{t('content.api_docs.path')}</th>
                  <th>{t('content.api_docs.fields')}</th>
                  <th>{t('content.api_docs.limit')}</th>
                </tr>
              </thead>
              <tbody>
                {ROUTES.filter((r) => r.group === g.group).map((r) => (
                  <tr key={`${r.method} ${r.path}`} data-testid="api-route">
                    <td>{r.method}</td>
                    <td>
                      <code>{r.path}</code>
                    </td>
                    <td className="api-fields">{r.fields.length ? r.fields.map((f) => <code key={f}>{f}</code>).reduce<ReactNode[]>((acc, el, i) => (i ? [...acc, ' ', el] : [el]), []) : '—'}</td>
                    <td className="api-fields">{r.perMinute ? t('content.api_docs.perMinute', { count: r.perMinute }) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </article>
  );
}
