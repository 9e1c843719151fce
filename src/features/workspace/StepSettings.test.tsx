// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import { defaultParams, MODULE_PARAMS, type ModuleName } from '../../shared/domain/modules.js';
import { i18n, setLanguage } from '../../i18n/index.js';
import { useDialogs } from '../../stores/dialogs.js';
import { lockedParam, StepSettings } from './StepSettings.js';

afterEach(cleanup);

function renderSettings(module: ModuleName, level: 'guest' | 'basic' | 'pro', onChange = vi.fn()) {
  render(
    <I18nextProvider i18n={i18n}>
      <StepSettings
        module={module}
        params={defaultParams(module)}
        level={level}
        source="workflow"
        onChange={onChange}
      />
    </I18nextProvider>,
  );
  return onChange;
}

describe('step settings are generated from MODULE_PARAMS', () => {
  it.each(['enlarge', 'denoise', 'sharpen', 'colorize', 'compress'] as const)(
    '%s: one control per non-constant param, spec defaults',
    (module) => {
      renderSettings(module, 'pro');
      const schema = Object.entries(MODULE_PARAMS[module]);
      for (const [key, spec] of schema) {
        if (spec.kind === 'int') {
          const slider = screen.getByRole('slider', { name: i18n.t(`workspace:params.${key}` as never) as string });
          expect(slider).toHaveProperty('value', String(spec.default));
          expect(slider.getAttribute('min')).toBe(String(spec.min));
          expect(slider.getAttribute('max')).toBe(String(spec.max));
        }
        if (spec.kind === 'bool')
          expect(
            screen.getByRole('switch', { name: new RegExp(i18n.t(`workspace:params.${key}` as never) as string) }),
          ).toBeTruthy();
        if (spec.kind === 'enum')
          expect(screen.getAllByRole('radio').length).toBeGreaterThanOrEqual(spec.values.length);
      }
    },
  );

  it('the scale buttons speak the language: 2x … 8x in English, 2倍 … 8倍 in Japanese (issue 47)', async () => {
    renderSettings('enlarge', 'pro');
    expect(screen.getByTestId('scale-4').textContent).toBe('4x');
    cleanup();
    await setLanguage('ja');
    try {
      renderSettings('enlarge', 'pro');
      expect(['2', '4', '6', '8'].map((s) => screen.getByTestId(`scale-${s}`).textContent)).toEqual([
        '2倍',
        '4倍',
        '6倍',
        '8倍',
      ]);
    } finally {
      await setLanguage('en');
    }
  });

  it('subscriber-only scales open the upgrade prompt for guests and are chosen by subscribers', () => {
    const onChange = renderSettings('enlarge', 'guest');
    fireEvent.click(screen.getByRole('radio', { name: /4x/ }));
    expect(onChange).not.toHaveBeenCalled();
    expect(useDialogs.getState().stack.at(-1)?.dialog).toMatchObject({
      kind: 'upgrade',
      source: 'workflow',
      medium: 'scale_4x',
    });
    cleanup();
    const onPaid = renderSettings('enlarge', 'basic');
    fireEvent.click(screen.getByRole('radio', { name: /4x/ }));
    expect(onPaid).toHaveBeenCalledWith('scale', 4);
  });

  it.each([
    ['colorize', 'psd', true, 'basic', 'psd'],
    ['colorize', 'psd', true, 'pro', null],
    ['colorize', 'isBest', true, 'register', 'best_colorize'],
    ['enlarge', 'scale', 2, 'guest', null],
    ['enlarge', 'scale', 8, 'expired', 'scale_8x'],
    ['enlarge', 'scale', 8, 'basic', null],
  ] as const)('%s.%s=%s for %s → %s', (module, key, value, level, expected) => {
    expect(lockedParam(module, key, value, level)).toBe(expected);
  });
});
