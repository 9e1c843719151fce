/** The occupation survey: one or more choices ('other' with its text); at least one option (spec §5). */
import { useState, type FormEvent } from 'react';
import { OCCUPATION_OTHER_MAX, OCCUPATIONS, surveyErrors } from '../../shared/domain/account.js';
import * as endpoints from '../../api/endpoints.js';
import { Field, FormStatus } from './Field.js';
import { formFailure, translateErrors, useAccountT } from './i18n.js';

export function SurveyForm({
  initial,
  initialOther = '',
  onSaved,
}: {
  initial: string[];
  initialOther?: string;
  onSaved?(choices: string[]): void;
}) {
  const t = useAccountT();
  const [choices, setChoices] = useState<string[]>(initial);
  const [other, setOther] = useState(initialOther);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const toggle = (o: string) => setChoices((c) => (c.includes(o) ? c.filter((x) => x !== o) : [...c, o]));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = translateErrors(t, surveyErrors({ occupations: choices, occupation_other: other }));
    setErrors(errs);
    setStatus(null);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      const r = await endpoints.setSurvey(choices, other);
      setStatus({ tone: 'success', text: t('survey.saved') });
      onSaved?.(r.survey);
    } catch (err) {
      const { fields, message } = formFailure(t, err);
      setErrors(fields);
      if (message) setStatus({ tone: 'error', text: message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="acct-card" onSubmit={(e) => void submit(e)} noValidate data-testid="survey-form">
      <fieldset className="acct-fieldset" aria-describedby={errors.occupations ? 'survey-err' : undefined}>
        <legend>
          <h2>{t('survey.title')}</h2>
          <span className="muted small">{t('survey.lead')}</span>
        </legend>
        <div className="acct-checks">
          {OCCUPATIONS.map((o) => (
            <label key={o} className="acct-check">
              <input
                type="checkbox"
                checked={choices.includes(o)}
                onChange={() => toggle(o)}
                data-testid={`survey-${o}`}
              />
              <span>{t(`occupations.${o}`)}</span>
            </label>
          ))}
        </div>
        {errors.occupations && (
          <p id="survey-err" className="field-error" role="alert" data-testid="survey-error">
            {errors.occupations}
          </p>
        )}
      </fieldset>
      {choices.includes('other') && (
        <Field
          id="survey-other"
          label={t('survey.other')}
          value={other}
          onChange={setOther}
          error={errors.occupation_other}
          maxLength={OCCUPATION_OTHER_MAX}
        />
      )}
      <FormStatus message={status?.text ?? null} tone={status?.tone ?? 'success'} testId="survey-status" />
      <button className="btn btn-primary" disabled={busy} data-testid="survey-save">
        {t('survey.save')}
      </button>
    </form>
  );
}
