/** My-account forms: profile (occupation required, 'other' needs its text) and password change (spec §5). */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client.js';
import * as endpoints from '../api/endpoints.js';
import { CODE } from '../shared/domain/codes.js';
import { errorText, reasonText } from '../app/handleError.js';
import { changePasswordErrors, OCCUPATIONS, profileErrors } from '../shared/domain/account.js';
import { Field } from './account/Field.js';
import { isAccountText, translateErrors, useAccountT } from './account/i18n.js';
import { forgetBound } from '../stores/guestBinding.js';
import { useUser } from '../stores/user.js';

/**
 * What both forms share: the fields, an error under each field (the shared rules answer in English;
 * the account namespace's one map translates them), a status line under the form, and a submit that
 * checks the fields before it sends. `send` answers the status text; a failure it throws goes on the
 * status line unless `fieldErrors` puts it under a field.
 */
function useAccountForm<F extends Record<string, string>>(empty: F, rules: (f: F) => Record<string, string>) {
  const at = useAccountT();
  const translate = (errs: Record<string, string>) => translateErrors(at, errs);
  const [f, setF] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<string | null>(null);
  const set = (k: keyof F) => (value: string) => setF((x) => ({ ...x, [k]: value }));
  const submit =
    (send: () => Promise<string>, fieldErrors?: (err: unknown) => Record<string, string> | null) =>
    async (e: FormEvent) => {
      e.preventDefault();
      setStatus(null);
      const errs = translate(rules(f));
      setErrors(errs);
      if (Object.keys(errs).length) return;
      try {
        setStatus(await send());
      } catch (err) {
        const under = fieldErrors?.(err);
        if (under) setErrors(under);
        else setStatus(errorText(err));
      }
    };
  return { f, setF, set, errors, status, translate, submit };
}

/** The card both forms sit in: title, fields, status line, submit button (test ids `<name>-form`, `-status`, `-save`). */
function AccountFormCard({
  name,
  title,
  onSubmit,
  status,
  submitLabel,
  primary,
  children,
}: {
  name: string;
  title: string;
  onSubmit(e: FormEvent): Promise<void>;
  status: string | null;
  submitLabel: string;
  primary?: boolean;
  children: ReactNode;
}) {
  return (
    <form className="panel form-card" onSubmit={(e) => void onSubmit(e)} noValidate data-testid={`${name}-form`}>
      <h2>{title}</h2>
      {children}
      {status && (
        <p className="note" role="status" data-testid={`${name}-status`}>
          {status}
        </p>
      )}
      <button className={`btn ${primary ? 'btn-primary' : 'btn-secondary'}`} data-testid={`${name}-save`}>
        {submitLabel}
      </button>
    </form>
  );
}

export function ProfileForm() {
  const { t } = useTranslation('site');
  const { f, setF, set, errors, status, submit } = useAccountForm(
    { first_name: '', last_name: '', occupation: '', occupation_other: '' },
    profileErrors,
  );
  useEffect(() => {
    endpoints
      .accountMe()
      .then((me) =>
        setF({
          first_name: me.first_name ?? '',
          last_name: me.last_name ?? '',
          occupation: me.occupation ?? '',
          occupation_other: me.occupation_other ?? '',
        }),
      )
      .catch(() => undefined);
  }, [setF]);
  const save = submit(async () => {
    await endpoints.profileSet({ ...f, occupation_other: f.occupation === 'other' ? f.occupation_other : undefined });
    return t('account.saved');
  });
  return (
    <AccountFormCard
      name="profile"
      title={t('account.profile')}
      onSubmit={save}
      status={status}
      submitLabel={t('account.saveProfile')}
      primary
    >
      <div className="form-row">
        <Field
          id="profile-first"
          label={t('account.firstName')}
          value={f.first_name}
          onChange={set('first_name')}
          error={errors.first_name}
        />
        <Field
          id="profile-last"
          label={t('account.lastName')}
          value={f.last_name}
          onChange={set('last_name')}
          error={errors.last_name}
        />
      </div>
      <label className="field">
        <span>{t('account.occupation')}</span>
        <select
          value={f.occupation}
          onChange={(e) => set('occupation')(e.target.value)}
          aria-invalid={Boolean(errors.occupation)}
          data-testid="profile-occupation"
        >
          <option value="">{t('account.choose')}</option>
          {OCCUPATIONS.map((o) => (
            <option key={o} value={o}>
              {t(`account.occupations.${o}`)}
            </option>
          ))}
        </select>
        {errors.occupation && (
          <span id="profile-occupation-error" className="field-error" data-testid="profile-occupation-error">
            {errors.occupation}
          </span>
        )}
      </label>
      {f.occupation === 'other' && (
        <Field
          id="profile-other"
          label={t('account.occupationOther')}
          value={f.occupation_other}
          onChange={set('occupation_other')}
          error={errors.occupation_other}
        />
      )}
    </AccountFormCard>
  );
}

const PW_ID = { old_password: 'pw-old', password: 'pw-new', confirm_password: 'pw-confirm' } as const;
const NO_PASSWORDS = { old_password: '', password: '', confirm_password: '' };

export function PasswordForm() {
  const { t } = useTranslation('site');
  const { f, setF, set, errors, status, translate, submit } = useAccountForm(NO_PASSWORDS, changePasswordErrors);
  const save = submit(
    async () => {
      await endpoints.changePassword(f.old_password, f.password, f.confirm_password);
      // The server ended every other session and user token and unbound the guest token: take the new
      // user token (and bind again) before the workspace makes its next call.
      forgetBound(useUser.getState().email);
      await useUser.getState().bootstrap();
      setF(NO_PASSWORDS);
      return t('account.passwordChanged');
    },
    // The server's form answers (code 1 with a field text, code 3 wrong password) go under their field.
    (err): Record<string, string> | null => {
      if (err instanceof ApiError && err.code === CODE.WRONG_PASSWORD) return { old_password: errorText(err) ?? '' };
      if (err instanceof ApiError && err.code === CODE.COMMON_PARAMETER_ERROR) {
        const text =
          reasonText(err.data) ?? (isAccountText(err.message) ? translate({ password: err.message }).password : null);
        if (text) return { password: text };
      }
      return null;
    },
  );
  return (
    <AccountFormCard
      name="password"
      title={t('account.passwordTitle')}
      onSubmit={save}
      status={status}
      submitLabel={t('account.changePassword')}
    >
      {(['old_password', 'password', 'confirm_password'] as const).map((k) => (
        // pw-old / pw-new / pw-confirm, each with its -error line.
        <Field
          key={k}
          id={PW_ID[k]}
          label={t(
            k === 'old_password' ? 'account.oldPassword' : k === 'password' ? 'account.newPassword' : 'auth.confirm',
          )}
          type="password"
          value={f[k]}
          onChange={set(k)}
          autoComplete={k === 'old_password' ? 'current-password' : 'new-password'}
          error={errors[k]}
        />
      ))}
    </AccountFormCard>
  );
}
