/** The developer quick start on /api-docs/: curl steps and a Node script, the texts of apiQuickStart.ts (run by a test). */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ASYNC_STEPS,
  CLIENT_SCRIPT,
  CURL_STEPS,
  NODE_SCRIPT,
  type CurlStep,
  type QuickStartStep,
} from './apiQuickStart.js';
import './apiQuickStart.css';

function CopyButton({ text, testId }: { text: string; testId: string }) {
  const { t } = useTranslation('site');
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <button type="button" className="btn quickstart-copy" onClick={copy} data-testid={testId}>
      {copied ? t('content.api_quickstart.copied') : t('content.api_quickstart.copy')}
    </button>
  );
}

const STEP_KEYS = {
  env: 'content.api_quickstart.step_env',
  photo: 'content.api_quickstart.step_photo',
  process: 'content.api_quickstart.step_process',
  upload: 'content.api_quickstart.step_upload',
  transform: 'content.api_quickstart.step_transform',
  progress: 'content.api_quickstart.step_progress',
  download: 'content.api_quickstart.step_download',
} as const satisfies Record<QuickStartStep, string>;

function Steps({ steps, start = 1 }: { steps: readonly CurlStep[]; start?: number }) {
  const { t } = useTranslation('site');
  return (
    <ol className="quickstart-steps" start={start}>
      {steps.map((s) => (
        <li key={s.step} data-testid={`quickstart-${s.step}`}>
          <p>{t(STEP_KEYS[s.step])}</p>
          <div className="quickstart-code">
            <pre tabIndex={0}>
              <code>{s.command}</code>
            </pre>
            <CopyButton text={s.command} testId={`quickstart-copy-${s.step}`} />
          </div>
          {s.answer && (
            <pre className="quickstart-answer" tabIndex={0}>
              <code>{s.answer}</code>
            </pre>
          )}
        </li>
      ))}
    </ol>
  );
}

function Script({ text, testId }: { text: string; testId: string }) {
  return (
    <div className="quickstart-code">
      <pre tabIndex={0}>
        <code>{text}</code>
      </pre>
      <CopyButton text={text} testId={testId} />
    </div>
  );
}

export function ApiQuickStart() {
  const { t, i18n } = useTranslation('site');
  const prefix = i18n.language && i18n.language !== 'en' ? `/${i18n.language}` : '';
  const oneCall = CURL_STEPS.filter((s) => !ASYNC_STEPS.includes(s.step));
  const fourCalls = CURL_STEPS.filter((s) => ASYNC_STEPS.includes(s.step));
  return (
    <section className="api-quickstart" aria-labelledby="api-quickstart-h" data-testid="api-quickstart">
      <h2 id="api-quickstart-h">{t('content.api_quickstart.title')}</h2>
      <p>
        {t('content.api_quickstart.intro')}{' '}
        <a href={`${prefix}/my-account/#api`}>{t('content.api_quickstart.token_link')}</a>
      </p>
      <h3>{t('content.api_quickstart.curl')}</h3>
      <Steps steps={oneCall} />
      <h3>{t('content.api_quickstart.node')}</h3>
      <p>{t('content.api_quickstart.node_intro')}</p>
      <Script text={NODE_SCRIPT} testId="quickstart-copy-node" />
      <h3>{t('content.api_quickstart.client')}</h3>
      <p>{t('content.api_quickstart.client_intro')}</p>
      <Script text={CLIENT_SCRIPT} testId="quickstart-copy-client" />
      <h3>{t('content.api_quickstart.async_title')}</h3>
      <p>{t('content.api_quickstart.async_intro')}</p>
      <Steps steps={fourCalls} start={oneCall.length + 1} />
    </section>
  );
}
