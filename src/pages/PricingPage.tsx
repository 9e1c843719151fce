/** Pricing: the two products of spec §3 in the language's currency, with the plan limits of spec §6. */
import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import * as endpoints from '../api/endpoints.js';
import { handleError } from '../app/handleError.js';
import { ENLARGE_MAX_SIDE_PX, PRODUCTS } from '../shared/domain/constants.js';
import { largestSideFor } from '../shared/domain/resultSize.js';
import { limitsFor } from '../shared/domain/plans.js';
import { formatNumber, formatPrice } from '../shared/domain/locale.js';
import { CurrencyPicker, useCurrency } from './account/CurrencyPicker.js';
import { L, useLang } from '../app/lang.js';
import { useUser } from '../stores/user.js';
import { usePageTitle } from './usePageTitle.js';

export function PricingPage() {
  const { t } = useTranslation('site');
  const lng = useLang();
  const [params] = useSearchParams();
  const { logged, level } = useUser();
  usePageTitle(t('pricing.title'));
  const source = params.get('source');
  const [currency, setCurrency] = useCurrency(lng);
  const free = limitsFor('guest');
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  // Without a payment provider the server sells nothing (plans come from the operator): say so, keep the plans on show.
  const [purchasing, setPurchasing] = useState(true);
  useEffect(() => {
    endpoints.paymentsConfig().then(
      (c) => setPurchasing(c.purchasing),
      () => undefined,
    );
  }, []);
  // Logged-in users open a checkout for the product, in their language's currency.
  const choose = async (productId: (typeof PRODUCTS)[number]['id']) => {
    setBusy(true);
    try {
      const c = await endpoints.createCheckout({
        product_id: productId,
        currency,
        locale: lng,
        source: source ?? 'pricing',
        medium: params.get('medium') ?? undefined,
      });
      // A hosted provider page (Stripe) is another site; the built-in checkout is one of ours.
      if (/^https?:\/\//.test(c.url)) window.location.assign(c.url);
      else navigate(c.url);
    } catch (e) {
      handleError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="container page">
      <h1>{t('pricing.title')}</h1>
      <p className="lead">{t('pricing.lead')}</p>
      {source === 'add_credits_popup' || source === 'insufficient_credits' ? (
        <p className="notice" role="status">
          {t('pricing.outOfCredits')}
        </p>
      ) : null}
      {!purchasing && (
        <p className="notice" role="status" data-testid="purchasing-off">
          {t('pricing.notConfigured')}
        </p>
      )}
      <CurrencyPicker value={currency} onChange={setCurrency} />
      <div className="price-grid">
        <article className="price-card">
          <h2>{t('pricing.free')}</h2>
          <p className="price">{formatPrice(0, lng, currency)}</p>
          <ul>
            <li>{t('pricing.credits', { count: free.credits })}</li>
            <li>{t('pricing.batch', { count: free.batch })}</li>
            <li data-testid="limit-free">
              {t('pricing.resolution', { mp: formatNumber(free.maxMegapixels, lng), mb: free.maxFileBytes / 1048576 })}
            </li>
            <li>{t('pricing.steps', { count: free.workflowSteps })}</li>
          </ul>
          <L to={logged ? '/batch-process/' : '/register/'} className="btn btn-secondary btn-block">
            {logged ? t('pricing.useFree') : t('pricing.signUp')}
          </L>
        </article>
        {PRODUCTS.map((p) => {
          const lim = limitsFor(p.level);
          const current = level === p.level;
          return (
            <article
              key={p.id}
              className={`price-card ${p.level === 'pro' ? 'featured' : ''}`}
              data-testid={`product-${p.id}`}
            >
              <h2>
                {t(`pricing.${p.level}`)}
                {p.level === 'pro' && <span className="badge badge-pro">{t('pricing.popular')}</span>}
              </h2>
              <p className="price" data-testid={`price-${p.level}`}>
                {formatPrice(p.price[currency], lng, currency)}
                <span className="muted small"> / {t('pricing.perMonth')}</span>
              </p>
              <ul>
                <li>{t('pricing.credits', { count: lim.credits })}</li>
                <li>{t('pricing.batch', { count: lim.batch })}</li>
                <li data-testid={`limit-${p.level}`}>
                  {t('pricing.resolution', {
                    mp: formatNumber(lim.maxMegapixels, lng),
                    mb: lim.maxFileBytes / 1048576,
                  })}
                </li>
                <li>{t('pricing.steps', { count: lim.workflowSteps })}</li>
                <li>{t('pricing.scales')}</li>
                <li data-testid={`largest-output-${p.level}`}>
                  {t('pricing.largestOutput', {
                    max: formatNumber(ENLARGE_MAX_SIDE_PX, lng),
                    side4: formatNumber(largestSideFor(4), lng),
                    side8: formatNumber(largestSideFor(8), lng),
                  })}
                </li>
                {lim.psd && <li>{t('pricing.psd')}</li>}
                {lim.bestColorize && <li>{t('pricing.best')}</li>}
              </ul>
              {current ? (
                <p className="muted center">{t('pricing.current')}</p>
              ) : logged ? (
                <button
                  className="btn btn-primary btn-block"
                  disabled={busy || !purchasing}
                  onClick={() => void choose(p.id)}
                  data-testid={`choose-${p.level}`}
                >
                  {t('pricing.choose', { plan: t(`pricing.${p.level}`) })}
                </button>
              ) : (
                <L
                  to={`/register/?plan=${p.id}`}
                  className="btn btn-primary btn-block"
                  data-testid={`choose-${p.level}`}
                >
                  {t('pricing.choose', { plan: t(`pricing.${p.level}`) })}
                </L>
              )}
            </article>
          );
        })}
      </div>
      <p className="muted small center" data-testid="credits-replace">
        {t('pricing.creditsReplace', {
          free: free.credits,
          basic: limitsFor('basic').credits,
          pro: limitsFor('pro').credits,
        })}
      </p>
      <p className="muted small center">{t('pricing.note')}</p>
    </div>
  );
}
