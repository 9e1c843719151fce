/**
 * The feature catalogue on /api-docs/: every job a jconfig may name (the document's JobConfig, generated
 * from src/shared/domain/modules.ts), its params with types, ranges and defaults, and an example jconfig;
 * then the refusal reasons (src/shared/domain/reasons.ts), the codes a developer switches on, each with
 * its English msg (‹name› stands for a value the answer's data carries).
 */
import { useTranslation } from 'react-i18next';
import { REASON_CODES, REASON } from '../../shared/domain/reasons.js';
import type { ApiFeature } from './openApiView.js';

function Feature({ f }: { f: ApiFeature }) {
  const { t } = useTranslation('site');
  return (
    <article className="api-call api-feature" id={`feature-${f.job}`} data-testid="api-feature">
      <h3 className="api-call-head">
        <code className="api-path">{f.job}</code>
      </h3>
      <p className="api-summary" lang="en">
        {f.description}
      </p>
      {f.params.length > 0 && (
        <div className="table-scroll">
          <table className="api-table api-fields-table">
            <thead>
              <tr>
                <th>{t('content.api_docs.param')}</th>
                <th>{t('content.api_docs.type')}</th>
                <th>{t('content.api_docs.default')}</th>
                <th>{t('content.api_docs.description')}</th>
              </tr>
            </thead>
            <tbody>
              {f.params.map((p) => (
                <tr key={p.name}>
                  <td>
                    <code>{p.name}</code>
                  </td>
                  <td className="api-type">{p.type}</td>
                  <td data-label={t('content.api_docs.default')} data-required={p.default !== ''}>
                    {p.default ? <code>{p.default}</code> : '—'}
                  </td>
                  <td lang="en">{p.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {f.example && (
        <>
          <p className="api-label small">
            <strong>{t('content.api_docs.example_jconfig')}</strong>
          </p>
          <pre className="api-example" tabIndex={0}>
            <code>{f.example}</code>
          </pre>
        </>
      )}
    </article>
  );
}

export function ApiFeatures({ features }: { features: readonly ApiFeature[] }) {
  const { t } = useTranslation('site');
  return (
    <section className="api-group" id="api-features" aria-labelledby="api-features-h" data-testid="api-features">
      <h2 id="api-features-h">{t('content.api_docs.features_title')}</h2>
      <p>{t('content.api_docs.features_intro')}</p>
      <nav className="api-feature-index" aria-label={t('content.api_docs.features_title')}>
        {features.map((f) => (
          <a key={f.job} href={`#feature-${f.job}`}>
            <code>{f.job}</code>
          </a>
        ))}
      </nav>
      {features.map((f) => (
        <Feature key={f.job} f={f} />
      ))}
    </section>
  );
}

export function ApiReasons() {
  const { t } = useTranslation('site');
  return (
    <section className="api-group" id="api-reasons" aria-labelledby="api-reasons-h" data-testid="api-reasons">
      <h2 id="api-reasons-h">{t('content.api_docs.reasons_title')}</h2>
      <p>{t('content.api_docs.reasons_intro')}</p>
      <details className="api-reasons">
        <summary>{t('content.api_docs.reasons_list', { count: REASON_CODES.length })}</summary>
        <dl lang="en">
          {REASON_CODES.map((r) => (
            <div key={r} className="api-reason">
              <dt>
                <code>{r}</code>
              </dt>
              <dd>{REASON[r].replace(/{{\s*(\w+)\s*}}/g, '‹$1›')}</dd>
            </div>
          ))}
        </dl>
      </details>
    </section>
  );
}
