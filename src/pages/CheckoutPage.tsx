/** Checkout of a plan with the built-in payment provider: shows the order, pays, applies the plan. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import * as endpoints from '../api/endpoints.js';
import { errorText } from '../app/handleError.js';
import { L, useLang } from '../app/lang.js';
import { useUser } from '../stores/user.js';
import { usePageTitle } from './usePageTitle.js';

export function CheckoutPage() {
  const { t } = useTranslation('site');
  const lng = useLang();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const [view, setView] = useState<endpoints.CheckoutView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = useUser((s) => s.refreshCredits);
  usePageTitle(t('checkout.title'));

  useEffect(() => {
    if (!id) return;
    endpoints.getCheckout(id).then(setView).catch((e) => setError(errorText(e)));
  }, [id]);

  const pay = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await endpoints.payLocal(id);
      setView(res.checkout);
      await refresh();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const price = view ? new Intl.NumberFormat({ en: 'en-US', de: 'de-DE', fr: 'fr-FR', ja: 'ja-JP' }[lng], { style: 'currency', currency: view.currency }).format(view.amount) : '';
  const paid = view?.status === 'paid' || view?.status === 'completed';
  return (
    <div className="container page auth-page">
      <div className="auth-card" data-testid="checkout">
        <h1>{t('checkout.title')}</h1>
        {!id && <p className="field-error">{t('checkout.missing')}</p>}
        {view && (
          <dl className="facts">
            <div>
              <dt>{t('checkout.plan')}</dt>
              <dd>{t(`pricing.${view.level}` as 'pricing.basic')}</dd>
            </div>
            <div>
              <dt>{t('checkout.amount')}</dt>
              <dd data-testid="checkout-amount">{price}</dd>
            </div>
          </dl>
        )}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        {view && !paid && view.status === 'open' && (
          <>
            <p className="muted small">{t('checkout.note')}</p>
            <button className="btn btn-primary btn-block" onClick={() => void pay()} disabled={busy} data-testid="checkout-pay">
              {t('checkout.pay', { price })}
            </button>
          </>
        )}
        {paid && (
          <div className="center" data-testid="checkout-paid">
            <p>{t('checkout.paid')}</p>
            <L to="/batch-process/" className="btn btn-primary">
              {t('home.cta')}
            </L>
          </div>
        )}
      </div>
    </div>
  );
}
