// @vitest-environment jsdom
// The pricing page's currency: the language's (yen in Japanese) until the visitor picks one, then the pick, kept.
import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Language } from '../../shared/domain/locale.js';
import { PICKED_CURRENCY_KEY, useCurrency } from './CurrencyPicker.js';

beforeEach(() => localStorage.clear());

describe('useCurrency', () => {
  it.each([
    ['en', 'USD'],
    ['de', 'EUR'],
    ['fr', 'EUR'],
    ['ja', 'JPY'],
  ] as const)('%s defaults to %s', (lng, currency) => {
    expect(renderHook(() => useCurrency(lng)).result.current[0]).toBe(currency);
  });

  it('keeps the pick across a change of language and a new page', () => {
    const { result, rerender } = renderHook(({ lng }: { lng: Language }) => useCurrency(lng), {
      initialProps: { lng: 'ja' },
    });
    act(() => result.current[1]('USD'));
    expect(result.current[0]).toBe('USD');
    rerender({ lng: 'de' });
    expect(result.current[0]).toBe('USD');
    expect(localStorage.getItem(PICKED_CURRENCY_KEY)).toBe('USD');
    expect(renderHook(() => useCurrency('fr')).result.current[0]).toBe('USD');
  });
});
