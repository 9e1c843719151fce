/** Small display helpers for the account pages. */
import type { Language } from '../../shared/domain/locale.js';

const INTL: Record<Language, string> = { en: 'en-US', de: 'de-DE', fr: 'fr-FR', ja: 'ja-JP' };

export function formatDate(ms: number | null, lng: Language): string {
  if (ms === null) return '';
  return new Intl.DateTimeFormat(INTL[lng], { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
}

export function formatDay(ms: number | null, lng: Language): string {
  if (ms === null) return '';
  return new Intl.DateTimeFormat(INTL[lng], { dateStyle: 'long' }).format(new Date(ms));
}

/** A price in the chosen currency (JPY may be chosen in any language; spec §3). */
export function formatMoney(amount: number, currency: 'USD' | 'EUR' | 'JPY', lng: Language): string {
  return new Intl.NumberFormat(INTL[lng], { style: 'currency', currency }).format(amount);
}
