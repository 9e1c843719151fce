/**
 * The account side's pages: /my-account/ (plan and credits, profile, survey, password, history),
 * /my-account/workflow/, /pricing/ (plans with checkout) and /checkout/ (the local payment provider's page).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { handleError } from '../../app/handleError.js';
import { L, useLang } from '../../app/lang.js';
import { PRODUCTS } from '../../domain/constants.js';
import { limitsFor } from '../../domain/plans.js';
import { currencyFor, localizedPath } from '../../domain/rules.js';
import { useUser } from '../../stores/user.js';
import { usePageTitle } from '../usePageTitle.js';
import * as acct from './api.js';
import { formatMoney } from './format.js';
import { HistoryList } from './HistoryList.js';
import { formFailure, useAccountT } from './i18n.js';
import { PasswordForm } from './PasswordForm.js';
import { PlanCard } from './PlanCard.js';
import { ProfileForm } from './ProfileForm.js';
import { SurveyForm } from './SurveyForm.js';
import { WorkflowsManager } from './WorkflowsManager.js';
import './account.css';

function NeedLogin() {
  const t = useAccountT();
  return (
    <div className="container page center" data-testid="need-login">
      <p>{t('needLogin')}</p>
      <L to="/login/" className="btn btn-primary">
        {t('login')}
      </L>
    </div>
  );
}

function Loading() {
  const { t } = useTranslation();
  return <div className="container page muted">{t('loading')}</div>;
}

export function MyAccountPage() {
  const t = useAccountT();
  const { logged, ready, logout } = useUser();
  const [account, setAccount] = useState<acct.AccountInfo | null>(null);
  usePageTitle(t('title'));
  useEffect(() => {
    if (logged) acct.me().then(setAccount).catch(handleError);
  }, [logged]);
  if (!ready) return <Loading />;
  if (!logged) return <NeedLogin />;
  return (
    <div className="container page acct-page">
      <header className="acct-head">
        <div>
          <h1>{t('title')}</h1>
          <p className="muted" data-testid="account-email">
            {account?.email}
          </p>
        </div>
        <div className="row-actions">
          <L to="/my-account/workflow/" className="btn btn-secondary" data-testid="account-workflows">
            {t('workflows.title')}
          </L>
          <button type="button" className="btn btn-ghost" onClick={() => void logout()} data-testid="logout">
            {t('logout')}
          </button>
        </div>
      </header>
      <PlanCard />
      {account && (
        <div className="acct-grid">
          <ProfileForm account={account} onSaved={(a) => setAccount({ ...account, ...a })} />
          <SurveyForm initial={account.survey ?? []} initialOther={account.occupation_other} />
          <PasswordForm />
        </div>
      )}
      <HistoryList />
    </div>
  );
}

export function MyWorkflowsPage() {
  const t = useAccountT();
  const { logged, ready } = useUser();
  usePageTitle(t('workflows.title'));
  if (!ready) return <Loading />;
  if (!logged) return <NeedLogin />;
  return (
    <div className="container page acct-page">
      <p>
        <L to="/my-account/">← {t('title')}</L>
      </p>
      <WorkflowsManager />
    </div>
  );
}

const CURRENCIES = ['USD', 'EUR', 'JPY'] as const;
type Currency = (typeof CURRENCIES)[number];

export function PricingPlansPage() {
  const t = useAccountT();
  const tc = useTranslation().t;
  const lng = useLang();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { logged, level } = useUser();
  const [currency, setCurrency] = useState<Currency>(currencyFor(lng));
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  usePageTitle(t('pricing.title'));
  useEffect(() => setCurrency(currencyFor(lng)), [lng]);
  const source = params.get('source') ?? undefined;
  const medium = params.get('medium') ?? undefined;
  const outOfCredits = source === 'add_credits_popup' || source === 'insufficient_credits';

  const choose = async (productId: number) => {
    if (!logged) return navigate(localizedPath(`/register/?plan=${productId}`, lng));
    setBusy(productId);
    setError(null);
    try {
      const co = await acct.openCheckout(productId, currency, lng, source, medium);
      navigate(co.url);
    } catch (e) {
      setError(formFailure(t, e).message);
    } finally {
      setBusy(null);
    }
  };

  const free = limitsFor('register');
  const features = (l: ReturnType<typeof limitsFor>) => [
    t('pricing.credits', { count: l.credits }),
    t('pricing.batch', { count: l.batch }),
    t('pricing.resolution', { mp: l.maxMegapixels, mb: l.maxFileBytes / 1048576 }),
    t('pricing.steps', { count: l.workflowSteps }),
    ...(l.scales.length > 1 ? [t('pricing.scales')] : []),
    ...(l.psd ? [t('pricing.psd')] : []),
    ...(l.bestColorize ? [t('pricing.best')] : []),
  ];
  return (
    <div className="container page acct-page" data-testid="pricing">
      <h1>{t('pricing.title')}</h1>
      <p className="lead">{t('pricing.lead')}</p>
      {outOfCredits && (
        <p className="notice" role="status" data-testid="pricing-out-of-credits">
          {t('pricing.outOfCredits')}
        </p>
      )}
      <div className="acct-currency" role="radiogroup" aria-label={t('pricing.currency')}>
        {CURRENCIES.map((c) => (
          <button key={c} type="button" role="radio" aria-checked={currency === c} className={`chip ${currency === c ? 'on' : ''}`} onClick={() => setCurrency(c)} data-testid={`currency-${c}`}>
            {c}
          </button>
        ))}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="price-grid">
        <article className="price-card">
          <h2>{tc('levels.register')}</h2>
          <p className="price">{formatMoney(0, currency, lng)}</p>
          <ul>
            {features(free).map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
          <L to={logged ? '/batch-process/' : '/register/'} className="btn btn-secondary btn-block">
            {logged ? t('pricing.useFree') : t('pricing.signUp')}
          </L>
        </article>
        {PRODUCTS.map((p) => {
          const current = level === p.level;
          return (
            <article key={p.id} className={`price-card ${p.level === 'pro' ? 'featured' : ''}`} data-testid={`product-${p.id}`}>
              <h2>{tc(`levels.${p.level}`)}</h2>
              <p className="price" data-testid={`price-${p.level}`}>
                {formatMoney(p.price[currency], currency, lng)}
                <span className="muted small"> / {t('pricing.perMonth')}</span>
              </p>
              <ul>
                {features(limitsFor(p.level)).map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
              {current && <p className="muted center">{t('pricing.current')}</p>}
              <button type="button" className="btn btn-primary btn-block" disabled={busy !== null} onClick={() => void choose(p.id)} data-testid={`choose-${p.level}`}>
                {current ? t('pricing.renew') : t('pricing.choose', { plan: tc(`levels.${p.level}`) })}
              </button>
            </article>
          );
        })}
      </div>
      <p className="muted small center">{t('pricing.note')}</p>
    </div>
  );
}

/** The local provider's checkout page (a real provider hosts its own and reports back by webhook). */
export function CheckoutPage() {
  const t = useAccountT();
  const tc = useTranslation().t;
  const lng = useLang();
  const [params] = useSearchParams();
  const { logged, ready, refreshCredits } = useUser();
  const id = params.get('id') ?? '';
  const [co, setCo] = useState<acct.Checkout | null>(null);
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  usePageTitle(t('checkout.title'));
  useEffect(() => {
    if (logged && id) acct.getCheckout(id).then(setCo, () => setMissing(true));
  }, [logged, id]);
  if (!ready) return <Loading />;
  if (!logged) return <NeedLogin />;
  if (missing || !id) return <div className="container page center">{t('checkout.notFound')}</div>;
  if (!co) return <Loading />;

  const pay = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await acct.payLocal(co.checkout_id);
      setCo(r.checkout);
      await refreshCredits();
    } catch (e) {
      setError(formFailure(t, e).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="container page auth-page">
      <section className="auth-card" aria-labelledby="co-title" data-testid="checkout">
        <h1 id="co-title">{t('checkout.title')}</h1>
        <dl className="acct-summary">
          <dt>{t('checkout.plan')}</dt>
          <dd data-testid="checkout-plan">{tc(`levels.${co.level}`)}</dd>
          <dt>{t('checkout.price')}</dt>
          <dd data-testid="checkout-price">
            {formatMoney(co.amount, co.currency, lng)} / {t('pricing.perMonth')}
          </dd>
        </dl>
        {co.status === 'open' && (
          <>
            <p className="muted small">{t('checkout.localNote')}</p>
            {error && (
              <p className="field-error" role="alert">
                {error}
              </p>
            )}
            <button type="button" className="btn btn-primary btn-block" disabled={busy} onClick={() => void pay()} data-testid="checkout-pay">
              {t('checkout.pay', { price: formatMoney(co.amount, co.currency, lng) })}
            </button>
          </>
        )}
        {co.status === 'paid' && (
          <div role="status" data-testid="checkout-paid">
            <p className="acct-success">{t('checkout.paid', { plan: tc(`levels.${co.level}`) })}</p>
            <div className="row-actions">
              <L to="/batch-process/" className="btn btn-primary">
                {t('checkout.toWorkspace')}
              </L>
              <L to="/my-account/" className="btn btn-secondary">
                {t('title')}
              </L>
            </div>
          </div>
        )}
        {co.status === 'cancelled' && <p className="notice">{t('checkout.cancelled')}</p>}
      </section>
    </div>
  );
}

