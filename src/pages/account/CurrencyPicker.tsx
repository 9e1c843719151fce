/** Currency choice on the pricing page: USD for en/ja, EUR for de/fr by default; JPY when chosen (spec §3, §9). */
import { useEffect, useState } from 'react';
import { currencyFor, type Language } from '../../shared/domain/locale.js';
import { useAccountT } from './i18n.js';
import './account.css';

export const CURRENCIES = ['USD', 'EUR', 'JPY'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** The language's currency until the visitor picks another one. */
export function useCurrency(lng: Language): [Currency, (c: Currency) => void] {
  const [currency, setCurrency] = useState<Currency>(currencyFor(lng));
  useEffect(() => setCurrency(currencyFor(lng)), [lng]);
  return [currency, setCurrency];
}

export function CurrencyPicker({ value, onChange }: { value: Currency; onChange(c: Currency): void }) {
  const t = useAccountT();
  return (
    <div className="acct-currency" role="radiogroup" aria-label={t('pricing.currency')} data-testid="currency-picker">
      {CURRENCIES.map((c) => (
        <button
          key={c}
          type="button"
          role="radio"
          aria-checked={value === c}
          className={`chip ${value === c ? 'on' : ''}`}
          onClick={() => onChange(c)}
          data-testid={`currency-${c}`}
        >
          {c}
        </button>
      ))}
    </div>
  );
}
