/** My-account forms: profile (occupation required, 'other' needs its text) and password change (spec §5). */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client.js';
import * as endpoints from '../api/endpoints.js';
import { CODE } from '../domain/codes.js';
import { errorText } from '../app/handleError.js';
import { changePasswordErrors, OCCUPATIONS, profileErrors } from '../domain/account.js';
import { isAccountText, translateErrors, useAccountT } from './account/i18n.js';
import { forgetBound } from './account/guestBinding.js';
import { useUser } from '../stores/user.js';

/** The shared rules answer in English; the account namespace's one map translates them. */
function useErrorText() {
  const t = useAccountT();
  return (errs: Record<string, string>) => translateErrors(t, errs);
}

function Err({ id, text }: { id: string; text?: string }) {
  return text ? (
    <span id={id} className="field-error" data-testid={id}>
      {text}
    </span>
  ) : null;
}

export function ProfileForm() {
  const { t } = useTranslation('site');
  const translate = useErrorText();
  const [f, setF] = useState({ first_name: '', last_name: '', occupation: '', occupation_other: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<string | null>(null);
  useEffect(() => {
    endpoints
      .accountMe()
      .then((me) => setF({ first_name: me.first_name ?? '', last_name: me.last_name ?? '', occupation: me.occupation ?? '', occupation_other: me.occupation_other ?? '' }))
      .catch(() => undefined);
  }, []);
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF((x) => ({ ...x, [k]: e.target.value }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setStatus(null);
    const errs = translate(profileErrors(f));
    setErrors(errs);
    if (Object.keys(errs).length) return;
    try {
      await endpoints.profileSet({ ...f, occupation_other: f.occupation === 'other' ? f.occupation_other : undefined });
      setStatus(t('account.saved'));
    } catch (err) {
      setStatus(errorText(err));
    }
  };
  return (
    <form className="panel form-card" onSubmit={(e) => void submit(e)} noValidate data-testid="profile-form">
      <h2>{t('account.profile')}</h2>
      <div className="form-row">
        <label className="field">
          <span>{t('account.firstName')}</span>
          <input value={f.first_name} onChange={set('first_name')} aria-invalid={Boolean(errors.first_name)} data-testid="profile-first" />
          <Err id="profile-first-error" text={errors.first_name} />
        </label>
        <label className="field">
          <span>{t('account.lastName')}</span>
          <input value={f.last_name} onChange={set('last_name')} aria-invalid={Boolean(errors.last_name)} data-testid="profile-last" />
          <Err id="profile-last-error" text={errors.last_name} />
        </label>
      </div>
      <label className="field">
        <span>{t('account.occupation')}</span>
        <select value={f.occupation} onChange={set('occupation')} aria-invalid={Boolean(errors.occupation)} data-testid="profile-occupation">
          <option value="">{t('account.choose')}</option>
          {OCCUPATIONS.map((o) => (
            <option key={o} value={o}>
              {t(`account.occupations.${o}`)}
            </option>
          ))}
        </select>
        <Err id="profile-occupation-error" text={errors.occupation} />
      </label>
      {f.occupation === 'other' && (
        <label className="field">
          <span>{t('account.occupationOther')}</span>
          <input value={f.occupation_other} onChange={set('occupation_other')} aria-invalid={Boolean(errors.occupation_other)} data-testid="profile-other" />
          <Err id="profile-other-error" text={errors.occupation_other} />
        </label>
      )}
      {status && (
        <p className="note" role="status" data-testid="profile-status">
          {status}
        </p>
      )}
      <button className="btn btn-primary" data-testid="profile-save">
        {t('account.saveProfile')}
      </button>
    </form>
  );
}

const PW_ID = { old_password: 'pw-old', password: 'pw-new', confirm_password: 'pw-confirm' } as const;

export function PasswordForm() {
  const { t } = useTranslation('site');
  const translate = useErrorText();
  const [f, setF] = useState({ old_password: '', password: '', confirm_password: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<string | null>(null);
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF((x) => ({ ...x, [k]: e.target.value }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setStatus(null);
    const errs = translate(changePasswordErrors(f));
    setErrors(errs);
    if (Object.keys(errs).length) return;
    try {
      await endpoints.changePassword(f.old_password, f.password, f.confirm_password);
      // The server ended every other session and user token and unbound the guest token: take the new
      // user token (and bind again) before the workspace makes its next call.
      forgetBound(useUser.getState().email);
      await useUser.getState().bootstrap();
      setF({ old_password: '', password: '', confirm_password: '' });
      setStatus(t('account.passwordChanged'));
    } catch (err) {
      // The server's form answers (code 1 with a field text, code 3 wrong password) go under their field.
      if (err instanceof ApiError && err.code === CODE.WRONG_PASSWORD) setErrors({ old_password: errorText(err) ?? '' });
      else if (err instanceof ApiError && err.code === CODE.COMMON_PARAMETER_ERROR && isAccountText(err.message)) setErrors({ password: translate({ password: err.message }).password });
      else setStatus(errorText(err));
    }
  };
  return (
    <form className="panel form-card" onSubmit={(e) => void submit(e)} noValidate data-testid="password-form">
      <h2>{t('account.passwordTitle')}</h2>
      {(['old_password', 'password', 'confirm_password'] as const).map((k) => (
        // pw-old / pw-new / pw-confirm, each with its -error line.
        <label className="field" key={k}>
          <span>{t(k === 'old_password' ? 'account.oldPassword' : k === 'password' ? 'account.newPassword' : 'auth.confirm')}</span>
          <input type="password" value={f[k]} onChange={set(k)} aria-invalid={Boolean(errors[k])} autoComplete={k === 'old_password' ? 'current-password' : 'new-password'} data-testid={PW_ID[k]} />
          <Err id={`${PW_ID[k]}-error`} text={errors[k]} />
        </label>
      ))}
      {status && (
        <p className="note" role="status" data-testid="password-status">
          {status}
        </p>
      )}
      <button className="btn btn-secondary" data-testid="password-save">
        {t('account.changePassword')}
      </button>
    </form>
  );
}
