/**
 * Checkout of a plan: shows the order; with the built-in provider it pays here, with a hosted provider
 * (Stripe) this is the return page: it waits for the provider's webhook to apply the plan.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isKeyIn } from '../i18n/keys.js';
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
  /** success | cancelled, when a hosted provider sends the buyer back here */
  const returned = params.get('status');
  const [view, setView] = useState<endpoints.CheckoutView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = useUser((s) => s.refreshCredits);
  usePageTitle(t('checkout.title'));

  useEffect(() => {
    if (!id) return;
    endpoints
      .getCheckout(id)
      .then(setView)
      .catch((e) => setError(errorText(e)));
  }, [id]);

  // Back from a hosted provider with a payment: the plan starts when its webhook arrives, so ask again
  // every 2 s (for up to 2 minutes) until the checkout reads paid.
  const waiting = returned === 'success' && view !== null && view.provider !== 'local' && view.status === 'open';
  useEffect(() => {
    if (!waiting) return;
    let tries = 0;
    const timer = setInterval(() => {
      tries += 1;
      if (tries > 60) return clearInterval(timer);
      endpoints
        .getCheckout(id)
        .then((v) => {
          setView(v);
          if (v.status !== 'open') void refresh();
        })
        .catch(() => undefined);
    }, 2000);
    return () => clearInterval(timer);
  }, [waiting, id, refresh]);

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

  const price = view
    ? new Intl.NumberFormat({ en: 'en-US', de: 'de-DE', fr: 'fr-FR', ja: 'ja-JP' }[lng], {
        style: 'currency',
        currency: view.currency,
      }).format(view.amount)
    : '';
  const paid = view?.status === 'paid';
  return (
    <div className="container page auth-page">
      <div className="auth-card" data-testid="checkout">
        <h1>{t('checkout.title')}</h1>
        {!id && <p className="field-error">{t('checkout.missing')}</p>}
        {view && (
          <dl className="facts">
            <div>
              <dt>{t('checkout.plan')}</dt>
              <dd>{isKeyIn('site', 'pricing', view.level) ? t(`pricing.${view.level}`) : view.level}</dd>
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
        {waiting && (
          <p className="muted" role="status" data-testid="checkout-waiting">
            {t('checkout.waiting')}
          </p>
        )}
        {view && !paid && view.status === 'open' && returned === 'cancelled' && (
          <p className="muted" data-testid="checkout-cancelled">
            {t('checkout.cancelled')}
          </p>
        )}
        {view && !paid && view.status === 'open' && view.provider === 'local' && (
          <>
            <p className="muted small">{t('checkout.note')}</p>
            <button
              className="btn btn-primary btn-block"
              onClick={() => void pay()}
              disabled={busy}
              data-testid="checkout-pay"
            >
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
