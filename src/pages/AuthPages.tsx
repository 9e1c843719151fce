/** Login and register (accounts served by the same server; spec §5 validation rules). */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CODE } from '../shared/domain/codes.js';
import { ApiError } from '../api/client.js';
import { errorText } from '../app/handleError.js';
import { L, useLang } from '../app/lang.js';
import { localizedPath } from '../shared/domain/links.js';
import { ACCOUNT_TEXT, emailError, registerErrors } from '../shared/domain/account.js';
import { useUser } from '../stores/user.js';
import { fieldText, translateErrors, useAccountT } from './account/i18n.js';
import { dialogs } from '../stores/dialogs.js';
import { usePageTitle } from './usePageTitle.js';

/** The shared form rules (src/shared/domain/account.ts) answer in English; fields keyed as the form's inputs. */
function validateRegistration(email: string, password: string, confirm: string): Record<string, string> {
  const errs = registerErrors({ email, password, confirm_password: confirm });
  return Object.fromEntries(
    Object.entries(errs).map(([field, text]) => [field === 'confirm_password' ? 'confirm' : field, text]),
  );
}

function Field({
  id,
  label,
  type,
  value,
  onChange,
  error,
  autoComplete,
}: {
  id: string;
  label: string;
  type: string;
  value: string;
  onChange(v: string): void;
  error?: string;
  autoComplete?: string;
}) {
  return (
    <label className="field" htmlFor={id}>
      <span>{label}</span>
      <input
        id={id}
        type={type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-err` : undefined}
        autoComplete={autoComplete}
        data-testid={id}
      />
      {error && (
        <span id={`${id}-err`} className="field-error">
          {error}
        </span>
      )}
    </label>
  );
}

export function LoginPage() {
  const { t } = useTranslation('site');
  const ta = useAccountT();
  const lng = useLang();
  const navigate = useNavigate();
  const login = useUser((s) => s.login);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  usePageTitle(t('auth.loginTitle'));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs: Record<string, string> = {};
    const emailProblem = emailError(email);
    if (emailProblem) errs.email = fieldText(ta, emailProblem);
    if (!password) errs.password = fieldText(ta, ACCOUNT_TEXT.required);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    setFailure(null);
    try {
      await login(email, password);
      navigate(localizedPath('/batch-process/', lng));
    } catch (err) {
      setFailure(
        err instanceof ApiError && err.code === CODE.USERNAME_NOT_EXIST ? ta('errors.emailMissing') : errorText(err),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="container page auth-page">
      <form className="auth-card" onSubmit={(e) => void submit(e)} noValidate>
        <h1>{t('auth.loginTitle')}</h1>
        <Field
          id="login-email"
          label={t('auth.email')}
          type="email"
          value={email}
          onChange={setEmail}
          error={errors.email}
          autoComplete="email"
        />
        <Field
          id="login-password"
          label={t('auth.password')}
          type="password"
          value={password}
          onChange={setPassword}
          error={errors.password}
          autoComplete="current-password"
        />
        {failure && (
          <p className="field-error" role="alert">
            {failure}
          </p>
        )}
        <button className="btn btn-primary btn-block" disabled={busy} data-testid="login-submit">
          {t('auth.login')}
        </button>
        <p className="muted small center">
          {t('auth.noAccount')} <L to="/register/">{t('auth.register')}</L>
        </p>
      </form>
    </div>
  );
}

export function RegisterPage() {
  const { t } = useTranslation('site');
  const lng = useLang();
  const navigate = useNavigate();
  const register = useUser((s) => s.register);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  usePageTitle(t('auth.registerTitle'));
  const ta = useAccountT();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = validateRegistration(email, password, confirm);
    setErrors(translateErrors(ta, errs));
    if (Object.keys(errs).length) return;
    setBusy(true);
    setFailure(null);
    try {
      await register(email, password, confirm);
      // A confirmation that the account exists (and what it comes with).
      dialogs.toast(t('auth.welcome', { count: useUser.getState().credits }), 'success', { testId: 'welcome-toast' });
      navigate(localizedPath('/batch-process/', lng));
    } catch (err) {
      setFailure(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="container page auth-page">
      <form className="auth-card" onSubmit={(e) => void submit(e)} noValidate>
        <h1>{t('auth.registerTitle')}</h1>
        <p className="muted">{t('auth.registerLead')}</p>
        <Field
          id="reg-email"
          label={t('auth.email')}
          type="email"
          value={email}
          onChange={setEmail}
          error={errors.email}
          autoComplete="email"
        />
        <Field
          id="reg-password"
          label={t('auth.password')}
          type="password"
          value={password}
          onChange={setPassword}
          error={errors.password}
          autoComplete="new-password"
        />
        <Field
          id="reg-confirm"
          label={t('auth.confirm')}
          type="password"
          value={confirm}
          onChange={setConfirm}
          error={errors.confirm}
          autoComplete="new-password"
        />
        <p className="muted small">{t('auth.passwordRule')}</p>
        {failure && (
          <p className="field-error" role="alert">
            {failure}
          </p>
        )}
        <button className="btn btn-primary btn-block" disabled={busy} data-testid="register-submit">
          {t('auth.register')}
        </button>
        <p className="muted small center">
          {t('auth.haveAccount')} <L to="/login/">{t('auth.login')}</L>
        </p>
      </form>
    </div>
  );
}
