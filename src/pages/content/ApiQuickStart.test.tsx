// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import { i18n, setLanguage } from '../../i18n/index.js';
import { ApiQuickStart } from './ApiQuickStart.js';
import { CURL_STEPS, NODE_SCRIPT } from './apiQuickStart.js';

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

const wrap = () => render(<I18nextProvider i18n={i18n}>{<ApiQuickStart />}</I18nextProvider>);

describe('the quick start on /api-docs/', () => {
  it('shows the very texts the quick-start test runs: every curl step and the Node script', () => {
    wrap();
    for (const s of CURL_STEPS)
      expect(screen.getByTestId(`quickstart-${s.step}`).querySelector('pre code')?.textContent).toBe(s.command);
    const codes = [...document.querySelectorAll('.api-quickstart pre code')].map((c) => c.textContent);
    expect(codes).toContain(NODE_SCRIPT);
  });

  it('is translated: German headings and step texts, the commands unchanged', async () => {
    await setLanguage('de');
    wrap();
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Schnellstart');
    expect(screen.getByTestId('quickstart-upload').textContent).toContain('Ein Foto hochladen');
    expect(screen.getByTestId('quickstart-upload').querySelector('pre code')?.textContent).toBe(
      CURL_STEPS.find((s) => s.step === 'upload')!.command,
    );
  });
});
