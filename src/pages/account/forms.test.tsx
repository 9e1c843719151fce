// @vitest-environment jsdom
import fs from 'node:fs';
import path from 'node:path';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import { ACCOUNT_TEXT } from '../../domain/account.js';
import { i18n } from '../../i18n/index.js';
import { PasswordForm } from './PasswordForm.js';
import { ProfileForm } from './ProfileForm.js';
import { SurveyForm } from './SurveyForm.js';
import type { AccountInfo } from './api.js';

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

const blank: AccountInfo = { id: 1, email: 'a@example.com', first_name: '', last_name: '', occupation: '', occupation_other: '', pid: 0, level: 'register', max_num: 3, used_num: 0, plan_expires_at: null };
const wrap = (node: React.ReactNode) => render(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);
const submit = (testId: string) => fireEvent.click(screen.getByTestId(testId));
const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('account forms validate with the spec texts before sending anything', () => {
  it('profile: names and occupation are required; other needs its text', () => {
    wrap(<ProfileForm account={blank} />);
    submit('profile-save');
    expect(screen.getByTestId('profile-first-error').textContent).toBe(ACCOUNT_TEXT.required);
    expect(screen.getByTestId('profile-last-error').textContent).toBe(ACCOUNT_TEXT.required);
    expect(screen.getByTestId('profile-occupation-error').textContent).toBe(ACCOUNT_TEXT.required);
    expect(screen.getByTestId('profile-first').getAttribute('aria-invalid')).toBe('true');
    type('profile-first', 'Ann');
    type('profile-last', 'Doe');
    fireEvent.change(screen.getByTestId('profile-occupation'), { target: { value: 'other' } });
    submit('profile-save');
    expect(screen.getByTestId('profile-other-error').textContent).toBe(ACCOUNT_TEXT.required);
    expect(screen.queryByTestId('profile-first-error')).toBeNull();
  });

  it('password: rule, must differ from the old one, confirmation must match', () => {
    wrap(<PasswordForm />);
    submit('password-save');
    expect(screen.getByTestId('pw-old-error').textContent).toBe(ACCOUNT_TEXT.required);
    type('pw-old', 'abcd1234');
    type('pw-new', 'abcdefgh');
    type('pw-confirm', 'abcdefgh');
    submit('password-save');
    expect(screen.getByTestId('pw-new-error').textContent).toBe(ACCOUNT_TEXT.password);
    type('pw-new', 'abcd1234');
    submit('password-save');
    expect(screen.getByTestId('pw-new-error').textContent).toBe(ACCOUNT_TEXT.passwordSame);
    type('pw-new', 'newpass99');
    type('pw-confirm', 'newpass98');
    submit('password-save');
    expect(screen.getByTestId('pw-confirm-error').textContent).toBe(ACCOUNT_TEXT.passwordMismatch);
  });

  it('survey: at least one option, shown in the page language', async () => {
    wrap(<SurveyForm initial={[]} />);
    submit('survey-save');
    expect(screen.getByTestId('survey-error').textContent).toBe(ACCOUNT_TEXT.survey);
    cleanup();
    await i18n.changeLanguage('de');
    wrap(<SurveyForm initial={['other']} />);
    submit('survey-save');
    expect(screen.getByTestId('survey-other-error').textContent).toBe('Dieses Feld ist erforderlich.');
  });
});

describe('account namespace', () => {
  const keys = (o: Record<string, unknown>, p = ''): string[] => Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v as Record<string, unknown>, `${p}${k}.`) : [`${p}${k}`]));
  const load = (lng: string) => JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, `../../../locales/${lng}/account.json`), 'utf8')) as Record<string, unknown>;
  it.each(['de', 'fr', 'ja'])('%s has every key of en, translated', (lng) => {
    const en = load('en');
    const other = load(lng);
    expect(keys(other).sort()).toEqual(keys(en).sort());
    expect((other.errors as Record<string, string>).required).not.toBe((en.errors as Record<string, string>).required);
  });
});
