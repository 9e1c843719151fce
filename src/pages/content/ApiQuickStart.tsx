/**
 * The developer quick start on /api-docs/: the new calls first (a free key and a cut-out in three calls, output
 * options, webhooks, the client package and its command), then the one-call enlarge and the four-call way; the
 * texts of apiQuickStart.ts (run by a test).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_FREE_PREVIEWS_PER_MONTH, API_PREVIEW_MEGAPIXELS } from '../../shared/domain/apiPlans.js';
import {
  CLI_COMMANDS,
  CLIENT_SCRIPT,
  CURL_STEPS,
  NODE_SCRIPT,
  QUICK_START_SECTIONS,
  WEBHOOK_VERIFY_SCRIPT,
  type CurlStep,
  type QuickStartSection,
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
  register: 'content.api_quickstart.step_register',
  key: 'content.api_quickstart.step_key',
  photo: 'content.api_quickstart.step_photo',
  cutout: 'content.api_quickstart.step_cutout',
  options: 'content.api_quickstart.step_options',
  webhook: 'content.api_quickstart.step_webhook',
  process: 'content.api_quickstart.step_process',
  upload: 'content.api_quickstart.step_upload',
  transform: 'content.api_quickstart.step_transform',
  progress: 'content.api_quickstart.step_progress',
  download: 'content.api_quickstart.step_download',
} as const satisfies Record<QuickStartStep, string>;

const SECTION_KEYS = {
  free: { title: 'content.api_quickstart.free_title', intro: 'content.api_quickstart.free_intro' },
  options: { title: 'content.api_quickstart.options_title', intro: 'content.api_quickstart.options_intro' },
  webhooks: { title: 'content.api_quickstart.webhooks_title', intro: 'content.api_quickstart.webhooks_intro' },
  client: { title: 'content.api_quickstart.client_title', intro: 'content.api_quickstart.cli_intro' },
  one_call: { title: 'content.api_quickstart.one_call_title', intro: 'content.api_quickstart.one_call_intro' },
  async: { title: 'content.api_quickstart.async_title', intro: 'content.api_quickstart.async_intro' },
} as const satisfies Record<QuickStartSection, { title: string; intro: string }>;

function Steps({ steps }: { steps: readonly CurlStep[] }) {
  const { t } = useTranslation('site');
  return (
    <ol className="quickstart-steps">
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

/** What a section shows after its curl steps: the scripts that go with it. */
function SectionScripts({ section }: { section: QuickStartSection }) {
  const { t } = useTranslation('site');
  switch (section) {
    case 'webhooks':
      return (
        <>
          <p>{t('content.api_quickstart.webhooks_verify')}</p>
          <Script text={WEBHOOK_VERIFY_SCRIPT} testId="quickstart-copy-verify" />
        </>
      );
    case 'client':
      return (
        <>
          <Script text={CLI_COMMANDS} testId="quickstart-copy-cli" />
          <p>{t('content.api_quickstart.client_intro')}</p>
          <Script text={CLIENT_SCRIPT} testId="quickstart-copy-client" />
        </>
      );
    case 'one_call':
      return (
        <>
          <p>{t('content.api_quickstart.node_intro')}</p>
          <Script text={NODE_SCRIPT} testId="quickstart-copy-node" />
        </>
      );
    default:
      return null;
  }
}

export function ApiQuickStart() {
  const { t, i18n } = useTranslation('site');
  const prefix = i18n.language && i18n.language !== 'en' ? `/${i18n.language}` : '';
  return (
    <section className="api-quickstart" aria-labelledby="api-quickstart-h" data-testid="api-quickstart">
      <h2 id="api-quickstart-h">{t('content.api_quickstart.title')}</h2>
      <p>
        {t('content.api_quickstart.intro')}{' '}
        <a href={`${prefix}/my-account/#api`}>{t('content.api_quickstart.token_link')}</a>
      </p>
      {QUICK_START_SECTIONS.map(({ section, steps }) => (
        <div key={section} className="quickstart-section" data-testid={`quickstart-section-${section}`}>
          <h3>{t(SECTION_KEYS[section].title)}</h3>
          <p>
            {t(SECTION_KEYS[section].intro, {
              mp: API_PREVIEW_MEGAPIXELS,
              previews: API_FREE_PREVIEWS_PER_MONTH,
            })}
          </p>
          {steps.length > 0 && <Steps steps={steps.map((step) => CURL_STEPS.find((c) => c.step === step)!)} />}
          <SectionScripts section={section} />
        </div>
      ))}
    </section>
  );
}
