/**
 * API docs: the OpenAPI document generated from the route schemas (openapi.json, written by npm run
 * api-docs; the server serves the same at /api-docs/openapi.json), grouped as a developer works:
 * authenticate, upload, process, poll, download, account. Bundled with the page, so it reads offline.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../usePageTitle.js';
import { ApiFeatures, ApiReasons } from './ApiFeatures.js';
import { ApiQuickStart } from './ApiQuickStart.js';
import { EnglishOnly } from './Article.js';
import { apiView, type ApiCall } from './openApiView.js';
import doc from './openapi.json';
import './content.css';
import './apiDocs.css';

const VIEW = apiView(doc);
const GROUP_KEYS = {
  authenticate: 'content.api_docs.group_authenticate',
  upload: 'content.api_docs.group_upload',
  process: 'content.api_docs.group_process',
  poll: 'content.api_docs.group_poll',
  download: 'content.api_docs.group_download',
  account: 'content.api_docs.group_account',
  payments: 'content.api_docs.group_payments',
  site: 'content.api_docs.group_site',
  misc: 'content.api_docs.group_misc',
} as const;
const isGroup = (name: string): name is keyof typeof GROUP_KEYS => Object.hasOwn(GROUP_KEYS, name);
const anchor = (c: ApiCall) =>
  `${c.method}-${c.path}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function Call({ call }: { call: ApiCall }) {
  const { t } = useTranslation('site');
  return (
    <article className="api-call" id={anchor(call)} data-testid="api-call">
      <h3 className="api-call-head" data-testid="api-route">
        <span className={`api-method api-method-${call.method.toLowerCase()}`}>{call.method}</span>{' '}
        <code className="api-path">{call.path}</code>
      </h3>
      <p className="api-summary" lang="en">
        {call.summary}
      </p>
      {call.description && (
        <p className="api-description muted small" lang="en">
          {call.description}
        </p>
      )}
      <p className="api-auth small">
        <strong>{t('content.api_docs.auth')}</strong>{' '}
        {call.auth.length
          ? call.auth
              .map((a) => <code key={a}>{a}</code>)
              .reduce<ReactNode[]>((acc, el, i) => (i ? [...acc, ' · ', el] : [el]), [])
          : t('content.api_docs.noAuth')}
        {call.auth.length > 0 && call.authOptional ? ` (${t('content.api_docs.optional')})` : ''}
      </p>
      {call.fields.length > 0 && (
        <div className="table-scroll">
          <table className="api-table api-fields-table" data-testid="api-fields">
            <thead>
              <tr>
                <th>{t('content.api_docs.field')}</th>
                <th>{t('content.api_docs.type')}</th>
                <th>{t('content.api_docs.required')}</th>
                <th>{t('content.api_docs.description')}</th>
              </tr>
            </thead>
            <tbody>
              {call.fields.map((f) => (
                <tr key={`${f.in}-${f.name}`}>
                  <td>
                    <code>{f.name}</code>
                  </td>
                  <td className="api-type">{f.type}</td>
                  <td data-label={t('content.api_docs.required')} data-required={f.required}>
                    {f.required ? t('content.api_docs.yes') : '—'}
                  </td>
                  <td lang="en">{f.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {call.example && (
        <>
          <p className="api-label small">
            <strong>{t('content.api_docs.example')}</strong>
          </p>
          <pre className="api-example" tabIndex={0}>
            <code>{call.method === 'GET' ? `${call.path}${call.example}` : call.example}</code>
          </pre>
        </>
      )}
      <p className="api-answer small">
        <strong>{t('content.api_docs.answer')}</strong>{' '}
        {call.answer.kind === 'json' ? (
          <>
            <code>{'{code, msg, data}'}</code>
            {call.answer.fields.length > 0 && (
              <>
                {' — data: '}
                {call.answer.fields
                  .map((f) => <code key={f}>{f}</code>)
                  .reduce<ReactNode[]>((acc, el, i) => (i ? [...acc, ' ', el] : [el]), [])}
              </>
            )}
          </>
        ) : (
          t('content.api_docs.file', { types: call.answer.types.join(', ') })
        )}
      </p>
    </article>
  );
}

export function ApiDocsPage() {
  const { t } = useTranslation('site');
  const title = t('content.api_docs.title');
  usePageTitle(title);
  return (
    <article className="container page prose content-article api-docs" data-testid="api-docs">
      <h1>{title}</h1>
      <p className="lead">{t('content.api_docs.body')}</p>
      <p className="muted small" data-testid="api-count">
        {t('content.api_docs.count', { count: VIEW.count })} <a href="/api-docs/openapi.json">/api-docs/openapi.json</a>
      </p>
      <EnglishOnly />
      <ApiQuickStart />
      <ApiFeatures features={VIEW.features} />
      <nav className="toc" aria-label={t('content.api_docs.groups')}>
        <ol>
          {VIEW.groups.map((g) => (
            <li key={g.name}>
              <a href={`#api-${g.name}`}>{isGroup(g.name) ? t(GROUP_KEYS[g.name]) : g.name}</a>{' '}
              <span className="muted small">({g.calls.length})</span>
            </li>
          ))}
        </ol>
      </nav>
      <section className="api-group" aria-labelledby="api-auth-h">
        <h2 id="api-auth-h">{t('content.api_docs.schemes')}</h2>
        <p lang="en">{VIEW.description}</p>
        <div className="table-scroll">
          <table className="api-table" data-testid="api-schemes">
            <tbody>
              {VIEW.schemes.map((s) => (
                <tr key={s.name}>
                  <td>
                    <code>{s.name}</code>
                  </td>
                  <td>
                    <code>{s.where}</code>
                  </td>
                  <td lang="en">{s.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <ApiReasons />
      {VIEW.groups.map((g) => (
        <section
          key={g.name}
          className="api-group"
          id={`api-${g.name}`}
          aria-labelledby={`api-${g.name}-h`}
          data-testid="api-group"
        >
          <h2 id={`api-${g.name}-h`}>{isGroup(g.name) ? t(GROUP_KEYS[g.name]) : g.name}</h2>
          <p lang="en">{g.description}</p>
          {g.calls.map((c) => (
            <Call key={`${c.method} ${c.path}`} call={c} />
          ))}
        </section>
      ))}
    </article>
  );
}
