/**
 * The developer's section of /my-account/ (docs/api.md): the account's API token — create it, see it
 * whole once (with a copy button), reset it after a confirmation — its last use, calls this month and
 * the credits it spends; and the API credit packs (src/shared/domain/apiPlans.ts), bought through the same
 * checkout as the plans. Every registered account may hold one (free previews, full size with its credits);
 * the webhook secret is shown once beside a new key, and the latest webhook deliveries are listed.
 */
import { useEffect, useState } from 'react';
import { handleError } from '../../app/handleError.js';
import { L, useLang } from '../../app/lang.js';
import {
  apiPlanCheckout,
  apiTokenCreate,
  apiTokenReset,
  apiTokenView,
  apiWebhookList,
  type ApiTokenView,
} from '../../api/apiTokens.js';
import { ApiError } from '../../api/client.js';
import { API_PLANS, type ApiPlan } from '../../shared/domain/apiPlans.js';
import { reasonOf } from '../../shared/domain/refusal.js';
import { currencyFor } from '../../shared/domain/locale.js';
import { useUser } from '../../stores/user.js';
import { formatDay, formatMoney } from './format.js';
import { useAccountT } from './i18n.js';
import './apiTokenSection.css';

type State = { kind: 'loading' } | { kind: 'not-entitled' } | { kind: 'none' } | { kind: 'token'; view: ApiTokenView };

export function ApiTokenSection() {
  const t = useAccountT();
  const lng = useLang();
  const { email } = useUser();
  const [state, setState] = useState<State>({ kind: 'loading' });
  /** the whole token, only right after it was created or reset */
  const [revealed, setRevealed] = useState<string | null>(null);
  /** the webhook signing secret, only in the answer that made it */
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    apiTokenView()
      .then((view) => setState(view ? { kind: 'token', view } : { kind: 'none' }))
      .catch((e: unknown) => {
        if (e instanceof ApiError && reasonOf(e.data)?.reason === 'apiPlanRequired') setState({ kind: 'not-entitled' });
        else handleError(e);
      });
  }, []);

  const act = async (call: () => Promise<ApiTokenView>) => {
    setBusy(true);
    try {
      const view = await call();
      setRevealed(view.api_token);
      setSecret(view.webhook_secret);
      setCopied(false);
      setConfirming(false);
      setState({ kind: 'token', view });
    } catch (e) {
      handleError(e);
    } finally {
      setBusy(false);
    }
  };

  const copy = () => {
    if (!revealed) return;
    void navigator.clipboard?.writeText(revealed).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };

  const lastUsed = (v: ApiTokenView) => (v.last_used_at === null ? t('api.neverUsed') : formatDay(v.last_used_at, lng));

  return (
    <section
      className="acct-card api-section"
      id="api"
      aria-labelledby="api-title"
      data-testid="api-section"
      aria-busy={state.kind === 'loading'}
    >
      <h2 id="api-title">{t('api.title')}</h2>
      <p className="muted">{t('api.intro')}</p>

      {state.kind === 'not-entitled' && (
        <p data-testid="api-not-entitled">
          {t('api.notEntitled')} <L to="/pricing/?source=account&medium=api_section">{t('api.proLink')}</L>
        </p>
      )}

      {state.kind === 'none' && (
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy}
          onClick={() => void act(apiTokenCreate)}
          data-testid="api-create"
        >
          {t('api.create')}
        </button>
      )}

      {state.kind === 'token' && (
        <>
          {revealed && (
            <div className="api-reveal" role="status" data-testid="api-reveal">
              <p>
                <strong>{t('api.shownOnce')}</strong>
              </p>
              <div className="api-token-row">
                <code data-testid="api-token-full">{revealed}</code>
                <button type="button" className="btn btn-secondary" onClick={copy} data-testid="api-copy">
                  {copied ? t('api.copied') : t('api.copy')}
                </button>
              </div>
              {secret && (
                <p className="small">
                  {t('api.webhookSecret')} <code data-testid="api-webhook-secret">{secret}</code>
                </p>
              )}
            </div>
          )}
          <dl className="facts">
            <div>
              <dt>{t('api.token')}</dt>
              <dd>
                <code data-testid="api-token-masked">{state.view.masked}</code>
              </dd>
            </div>
            <div>
              <dt>{t('api.lastUsed')}</dt>
              <dd data-testid="api-last-used">{lastUsed(state.view)}</dd>
            </div>
            <div>
              <dt>{t('api.callsThisMonth')}</dt>
              <dd data-testid="api-calls">{state.view.calls_this_month}</dd>
            </div>
            <div>
              <dt>{t('api.credits')}</dt>
              <dd data-testid="api-credits">{state.view.credits}</dd>
            </div>
            <div>
              <dt>{t('api.freePreviews')}</dt>
              <dd data-testid="api-free-previews">
                {t('api.freePreviewsLeft', {
                  left: state.view.free_previews_left,
                  total: state.view.free_previews_per_month,
                })}
              </dd>
            </div>
            {state.view.api_pack_credits > 0 && (
              <div>
                <dt>{t('api.packCreditsOwned')}</dt>
                <dd data-testid="api-pack-credits">{state.view.api_pack_credits}</dd>
              </div>
            )}
          </dl>
          <p className="muted small">{t('api.limits', { count: state.view.rate_limit_per_minute })}</p>
          {confirming ? (
            <div
              className="api-confirm"
              role="alertdialog"
              aria-labelledby="api-confirm-text"
              data-testid="api-reset-confirm"
            >
              <p id="api-confirm-text">{t('api.resetConfirm')}</p>
              <div className="row-actions">
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={busy}
                  onClick={() => void act(apiTokenReset)}
                  data-testid="api-reset-yes"
                >
                  {t('api.resetYes')}
                </button>
                <button
                  type="button"
                  className="btn btn-ghost"
                  onClick={() => setConfirming(false)}
                  data-testid="api-reset-no"
                >
                  {t('api.cancel')}
                </button>
              </div>
            </div>
          ) : (
            <div className="row-actions">
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => setConfirming(true)}
                data-testid="api-reset"
              >
                {t('api.reset')}
              </button>
              <L to="/api-docs/" className="btn btn-ghost">
                {t('api.docs')}
              </L>
            </div>
          )}
        </>
      )}

      {state.kind === 'token' && <WebhookDeliveries />}
      {state.kind !== 'loading' && email && <ApiPlans email={email} />}
    </section>
  );
}

type Delivery = Awaited<ReturnType<typeof apiWebhookList>>[number];
const DELIVERY_STATUSES = ['waiting', 'sending', 'retry', 'delivered', 'failed'] as const;

/** The latest works started with a webhook_url and how their delivery went (docs/api.md "Webhooks"). */
function WebhookDeliveries() {
  const t = useAccountT();
  const lng = useLang();
  const [rows, setRows] = useState<Delivery[] | null>(null);
  useEffect(() => {
    apiWebhookList().then(setRows, handleError);
  }, []);
  if (!rows) return null;
  return (
    <div className="api-webhooks" data-testid="api-webhooks">
      <h3>{t('api.webhooksTitle')}</h3>
      {rows.length === 0 ? (
        <p className="muted small">{t('api.webhooksNone')}</p>
      ) : (
        <ul className="api-webhook-list">
          {rows.slice(0, 10).map((r) => (
            <li key={r.trans_id} data-testid="api-webhook" data-status={r.status}>
              <code title={r.url}>{r.trans_id.slice(0, 8)}</code>{' '}
              <span>{DELIVERY_STATUSES.includes(r.status) ? t(`api.webhookStatus.${r.status}`) : r.status}</span>{' '}
              <span className="muted small">
                {t('api.webhookTries', { count: r.attempts })}
                {r.last_http !== null ? ` · HTTP ${r.last_http}` : r.last_error ? ` · ${r.last_error}` : ''} ·{' '}
                {formatDay(r.created_at, lng)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The API credit packs with a buy button each: a checkout for the signed-in account, paid on the provider's page. */
function ApiPlans({ email }: { email: string }) {
  const t = useAccountT();
  const lng = useLang();
  const currency = currencyFor(lng);
  const [buying, setBuying] = useState<string | null>(null);

  const buy = async (plan: ApiPlan) => {
    setBuying(plan.name);
    try {
      const checkout = await apiPlanCheckout(email, plan.name, currency);
      window.location.assign(checkout.url);
    } catch (e) {
      handleError(e);
      setBuying(null);
    }
  };

  return (
    <div className="api-plans" id="api-plans" data-testid="api-plans">
      <h3>{t('api.plansTitle')}</h3>
      <p className="muted small">{t('api.plansIntro')}</p>
      <ul className="api-plan-list">
        {API_PLANS.map((p) => (
          <li key={p.name} data-testid={`api-plan-${p.name}`}>
            <span className="api-plan-credits">{t('api.packCredits', { count: p.credits })}</span>
            <span className="api-plan-price">{formatMoney(p.price[currency], currency, lng)}</span>
            <button type="button" className="btn btn-secondary" disabled={buying !== null} onClick={() => void buy(p)}>
              {t('api.buy')}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
