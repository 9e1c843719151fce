/** Profile: first and last name and the required occupation ('other' with its free text), spec §5. */
import { useState, type FormEvent } from 'react';
import { NAME_MAX, OCCUPATION_OTHER_MAX, OCCUPATIONS, profileErrors } from '../../domain/account.js';
import * as acct from './api.js';
import { Field, FormStatus } from './Field.js';
import { formFailure, translateErrors, useAccountT } from './i18n.js';

export function ProfileForm({ account, onSaved }: { account: acct.AccountInfo; onSaved?(a: Partial<acct.AccountInfo>): void }) {
  const t = useAccountT();
  const [first, setFirst] = useState(account.first_name);
  const [last, setLast] = useState(account.last_name);
  const [occupation, setOccupation] = useState(account.occupation);
  const [other, setOther] = useState(account.occupation_other);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const f = { first_name: first, last_name: last, occupation, occupation_other: other };
    const errs = translateErrors(t, profileErrors(f));
    setErrors(errs);
    setStatus(null);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      const saved = await acct.setProfile(f);
      setStatus({ tone: 'success', text: t('profile.saved') });
      onSaved?.(saved);
    } catch (err) {
      const { fields, message } = formFailure(t, err);
      setErrors(fields);
      if (message) setStatus({ tone: 'error', text: message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="acct-card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="profile-title" data-testid="profile-form">
      <h2 id="profile-title">{t('profile.title')}</h2>
      <div className="acct-row">
        <Field id="profile-first" label={t('profile.firstName')} value={first} onChange={setFirst} error={errors.first_name} autoComplete="given-name" maxLength={NAME_MAX} />
        <Field id="profile-last" label={t('profile.lastName')} value={last} onChange={setLast} error={errors.last_name} autoComplete="family-name" maxLength={NAME_MAX} />
      </div>
      <label className="field" htmlFor="profile-occupation">
        <span>{t('profile.occupation')}</span>
        <select
          id="profile-occupation"
          value={occupation}
          onChange={(e) => setOccupation(e.target.value)}
          aria-invalid={Boolean(errors.occupation)}
          aria-describedby={errors.occupation ? 'profile-occupation-err' : undefined}
          data-testid="profile-occupation"
        >
          <option value="">{t('profile.choose')}</option>
          {OCCUPATIONS.map((o) => (
            <option key={o} value={o}>
              {t(`occupations.${o}`)}
            </option>
          ))}
        </select>
        {errors.occupation && (
          <span id="profile-occupation-err" className="field-error" data-testid="profile-occupation-error">
            {errors.occupation}
          </span>
        )}
      </label>
      {occupation === 'other' && (
        <Field id="profile-other" label={t('profile.other')} value={other} onChange={setOther} error={errors.occupation_other} maxLength={OCCUPATION_OTHER_MAX} />
      )}
      <FormStatus message={status?.text ?? null} tone={status?.tone ?? 'success'} testId="profile-status" />
      <button className="btn btn-primary" disabled={busy} data-testid="profile-save">
        {t('profile.save')}
      </button>
    </form>
  );
}
