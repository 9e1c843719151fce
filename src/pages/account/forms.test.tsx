// @vitest-environment jsdom
import fs from 'node:fs';
import path from 'node:path';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import { ACCOUNT_TEXT } from '../../shared/domain/account.js';
import { i18n, setLanguage } from '../../i18n/index.js';
import { SurveyForm } from './SurveyForm.js';

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

const wrap = (node: React.ReactNode) => render(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);
const submit = (testId: string) => fireEvent.click(screen.getByTestId(testId));

describe('the survey validates with the spec texts before sending anything', () => {
  it('survey: at least one option, shown in the page language', async () => {
    wrap(<SurveyForm initial={[]} />);
    submit('survey-save');
    expect(screen.getByTestId('survey-error').textContent).toBe(ACCOUNT_TEXT.survey);
    cleanup();
    await setLanguage('de');
    wrap(<SurveyForm initial={['other']} />);
    submit('survey-save');
    expect(screen.getByTestId('survey-other-error').textContent).toBe('Dieses Feld ist erforderlich.');
  });
});

describe('account namespace', () => {
  const keys = (o: Record<string, unknown>, p = ''): string[] =>
    Object.entries(o).flatMap(([k, v]) =>
      v && typeof v === 'object' ? keys(v as Record<string, unknown>, `${p}${k}.`) : [`${p}${k}`],
    );
  const load = (lng: string) =>
    JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, `../../../locales/${lng}/account.json`), 'utf8'),
    ) as Record<string, unknown>;
  it.each(['de', 'fr', 'ja'])('%s has every key of en, translated', (lng) => {
    const en = load('en');
    const other = load(lng);
    expect(keys(other).sort()).toEqual(keys(en).sort());
    expect((other.errors as Record<string, string>).required).not.toBe((en.errors as Record<string, string>).required);
  });
});
