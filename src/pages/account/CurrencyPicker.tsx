/** Currency choice on the pricing page: the language's by default (planCurrencyFor), the visitor's pick once made. */
import { useState } from 'react';
import { planCurrencyFor, type Language } from '../../shared/domain/locale.js';
import { useAccountT } from './i18n.js';
import './account.css';

const CURRENCIES = ['USD', 'EUR', 'JPY'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Where the visitor's pick is kept on this device (it outlives a reload and a change of language). */
export const PICKED_CURRENCY_KEY = 'pixmill.currency';

const isCurrency = (v: unknown): v is Currency => (CURRENCIES as readonly unknown[]).includes(v);

function pickedCurrency(): Currency | null {
  try {
    const v = localStorage.getItem(PICKED_CURRENCY_KEY);
    return isCurrency(v) ? v : null;
  } catch {
    return null;
  }
}

/** The language's currency until the visitor picks one; the pick is kept, in every language. */
export function useCurrency(lng: Language): [Currency, (c: Currency) => void] {
  const [picked, setPicked] = useState<Currency | null>(pickedCurrency);
  const pick = (c: Currency) => {
    setPicked(c);
    try {
      localStorage.setItem(PICKED_CURRENCY_KEY, c);
    } catch {
      // storage refused (private mode): the pick holds for this page
    }
  };
  return [picked ?? planCurrencyFor(lng), pick];
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
