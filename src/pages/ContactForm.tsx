/** The contact page's form: stored on the server for the operator (npm run admin -- messages); the address comes from CONTACT_EMAIL. */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLang } from '../app/lang.js';
import { errorText } from '../app/handleError.js';
import { callRoute } from '../api/callRoute.js';

export function ContactForm() {
  const { t } = useTranslation('site');
  const lng = useLang();
  const [address, setAddress] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'busy' | 'sent'>('idle');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void callRoute('ContactInfo', {})
      .then((d) => setAddress(d.email))
      .catch(() => undefined);
  }, []);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    setState('busy');
    setError(null);
    try {
      const text = (k: string) => String(f.get(k) ?? '');
      await callRoute('ContactSend', {
        name: text('name'),
        email: text('email'),
        message: text('message'),
        locale: lng,
      });
      setState('sent');
    } catch (err) {
      // The server's reason, translated (a missing field, an address that is not one, a text too long).
      setError(errorText(err));
      setState('idle');
    }
  };

  return (
    <section className="contact" data-testid="contact">
      {address && (
        <p>
          {t('contact.write')}{' '}
          <a href={`mailto:${address}`} data-testid="contact-email">
            {address}
          </a>
        </p>
      )}
      {state === 'sent' ? (
        <p className="notice-ok" role="status" data-testid="contact-sent">
          {t('contact.sent')}
        </p>
      ) : (
        <form className="form contact-form" onSubmit={(e) => void submit(e)}>
          <label className="field">
            <span>{t('contact.name')}</span>
            <input name="name" required maxLength={100} autoComplete="name" data-testid="contact-name" />
          </label>
          <label className="field">
            <span>{t('contact.email')}</span>
            <input name="email" type="email" required maxLength={254} autoComplete="email" data-testid="contact-from" />
          </label>
          <label className="field">
            <span>{t('contact.message')}</span>
            <textarea name="message" required maxLength={5000} rows={6} data-testid="contact-message" />
          </label>
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <button className="btn btn-primary" disabled={state === 'busy'} data-testid="contact-send">
            {t('contact.send')}
          </button>
        </form>
      )}
    </section>
  );
}
