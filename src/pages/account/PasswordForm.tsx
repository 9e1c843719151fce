/** Change password: the old one, a new one (8–48, letters and numbers) that differs, and its confirmation. */
import { useState, type FormEvent } from 'react';
import { changePasswordErrors } from '../../domain/account.js';
import * as acct from './api.js';
import { Field, FormStatus } from './Field.js';
import { formFailure, translateErrors, useAccountT } from './i18n.js';

export function PasswordForm() {
  const t = useAccountT();
  const [old, setOld] = useState('');
  const [pw, setPw] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = translateErrors(t, changePasswordErrors({ old_password: old, password: pw, confirm_password: confirm }));
    setErrors(errs);
    setStatus(null);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      await acct.changePassword(old, pw, confirm);
      setOld('');
      setPw('');
      setConfirm('');
      setStatus({ tone: 'success', text: t('password.changed') });
    } catch (err) {
      const { fields, message } = formFailure(t, err);
      setErrors(fields);
      if (message) setStatus({ tone: 'error', text: message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="acct-card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="password-title" data-testid="password-form">
      <h2 id="password-title">{t('password.title')}</h2>
      <Field id="pw-old" type="password" label={t('password.old')} value={old} onChange={setOld} error={errors.old_password} autoComplete="current-password" />
      <Field id="pw-new" type="password" label={t('password.new')} value={pw} onChange={setPw} error={errors.password} autoComplete="new-password" hint={t('password.rule')} />
      <Field id="pw-confirm" type="password" label={t('password.confirm')} value={confirm} onChange={setConfirm} error={errors.confirm_password} autoComplete="new-password" />
      <FormStatus message={status?.text ?? null} tone={status?.tone ?? 'success'} testId="password-status" />
      <button className="btn btn-primary" disabled={busy} data-testid="password-save">
        {t('password.save')}
      </button>
    </form>
  );
}
