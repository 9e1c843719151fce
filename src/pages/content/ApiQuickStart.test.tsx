// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import { i18n, setLanguage } from '../../i18n/index.js';
import { LANGUAGES } from '../../shared/domain/locale.js';
import { ApiQuickStart } from './ApiQuickStart.js';
import {
  CLI_COMMANDS,
  CLIENT_SCRIPT,
  CURL_STEPS,
  NODE_SCRIPT,
  QUICK_START_SECTIONS,
  WEBHOOK_VERIFY_SCRIPT,
} from './apiQuickStart.js';

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

const wrap = () => render(<I18nextProvider i18n={i18n}>{<ApiQuickStart />}</I18nextProvider>);
const shownSteps = () =>
  [...document.querySelectorAll('.quickstart-steps > li')].map((li) => li.getAttribute('data-testid'));
const sectionTitles = () => [...document.querySelectorAll('.api-quickstart h3')].map((h) => h.textContent);
/** The section titles and step texts shown (the words a language changes; the commands stay). */
const shownTexts = () => [
  ...sectionTitles(),
  ...[...document.querySelectorAll('.quickstart-steps > li > p')].map((p) => p.textContent),
];

describe('the quick start on /api-docs/', () => {
  it('shows the very texts the quick-start test runs: every curl step and every script', () => {
    wrap();
    for (const s of CURL_STEPS)
      expect(screen.getByTestId(`quickstart-${s.step}`).querySelector('pre code')?.textContent).toBe(s.command);
    const codes = [...document.querySelectorAll('.api-quickstart pre code')].map((c) => c.textContent);
    for (const script of [NODE_SCRIPT, WEBHOOK_VERIFY_SCRIPT, CLI_COMMANDS, CLIENT_SCRIPT])
      expect(codes).toContain(script);
  });

  it('shows the new calls first: a free key and a cut-out in three calls, output options, webhooks, the client and CLI', () => {
    wrap();
    expect(sectionTitles()).toEqual([
      'A free key and a cut-out in three calls',
      'Output options and photos of any size',
      'Webhooks',
      'The client package and the pixmill command',
      'Enlarge in one call',
      'The same in four calls',
    ]);
    expect(shownSteps()).toEqual(QUICK_START_SECTIONS.flatMap((s) => s.steps).map((s) => `quickstart-${s}`));
    expect(shownSteps().slice(0, 7)).toEqual([
      'quickstart-env',
      'quickstart-register',
      'quickstart-key',
      'quickstart-photo',
      'quickstart-cutout',
      'quickstart-options',
      'quickstart-webhook',
    ]);
    const free = screen.getByTestId('quickstart-section-free');
    expect(free.textContent).toContain('size=preview (at most 0.25 MP) cost no credit, 50 a month');
    const commands = [...free.querySelectorAll('pre code')].map((c) => c.textContent).join('\n');
    expect(commands).toContain('/api/account/register');
    expect(commands).toContain('/api/v2/api_token/get');
    expect(commands).toContain('-F feature=background_removal -F size=preview');
    const options = screen.getByTestId('quickstart-options').textContent;
    for (const field of ['feature=remove_background', 'format=jpg', 'bg_color=', 'crop=true', 'crop_margin='])
      expect(options).toContain(field);
    expect(screen.getByTestId('quickstart-section-options').textContent).toMatch(/size=auto.*size=full/);
    expect(screen.getByTestId('quickstart-webhook').textContent).toContain('webhook_url=');
    expect(screen.getByTestId('quickstart-section-client').textContent).toContain('pixmill remove-bg');
  });

  it('is translated: German headings and step texts, the commands unchanged', async () => {
    await setLanguage('de');
    wrap();
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Schnellstart');
    expect(sectionTitles()[0]).toBe('Ein kostenloser Schlüssel und ein Freisteller in drei Aufrufen');
    expect(screen.getByTestId('quickstart-upload').textContent).toContain('Ein Foto hochladen');
    expect(screen.getByTestId('quickstart-upload').querySelector('pre code')?.textContent).toBe(
      CURL_STEPS.find((s) => s.step === 'upload')!.command,
    );
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    '%s: every section title and step text in its own words',
    async (lng) => {
      wrap();
      const english = shownTexts();
      cleanup();
      await setLanguage(lng);
      wrap();
      const translated = shownTexts();
      expect(translated).toHaveLength(english.length);
      // "Webhooks" is the word in German and French too
      expect(translated.filter((text, i) => text === english[i] && text !== 'Webhooks')).toEqual([]);
    },
  );
});
