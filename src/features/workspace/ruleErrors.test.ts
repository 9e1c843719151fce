// Every rule-failure code has its text in every locale, and the translation uses the code's data.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChainError, EntitlementError } from '../../shared/domain/modules.js';
import { i18n, loadLanguage } from '../../i18n/index.js';
import { chainText, entitlementText, RULE_ERROR_KEY } from './ruleErrors.js';

const LOCALES = ['en', 'de', 'fr', 'ja'] as const;
const CHAIN: ChainError[] = [
  { code: 'noSteps' },
  { code: 'tooManySteps', max: 3 },
  { code: 'lastStepOnly', module: 'enlarge' },
];
const ENTITLEMENT: EntitlementError[] = [
  { code: 'psdProOnly' },
  { code: 'bestColorizeProOnly' },
  { code: 'scaleSubscribersOnly', scale: 8 },
  { code: 'bestEnlargeSubscribersOnly' },
];

function lookup(lng: string, key: string): unknown {
  const ns = JSON.parse(
    readFileSync(new URL(`../../../locales/${lng}/workspace.json`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  return key
    .split('.')
    .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), ns);
}

describe('rule failures are translated from their code', () => {
  it('every code is covered by the examples below', () => {
    expect(new Set([...CHAIN, ...ENTITLEMENT].map((e) => e.code))).toEqual(new Set(Object.keys(RULE_ERROR_KEY)));
  });

  it.each(LOCALES)('%s has a text for every code', (lng) => {
    for (const [code, key] of Object.entries(RULE_ERROR_KEY)) {
      const text = lookup(lng, key);
      expect(typeof text === 'string' && text.trim().length > 0, `${lng} ${code} → workspace:${key}`).toBe(true);
    }
  });

  it.each(LOCALES)('%s shows each failure in its own words, with the data filled in', async (lng) => {
    await loadLanguage(lng);
    await i18n.changeLanguage(lng);
    for (const e of ENTITLEMENT)
      expect(entitlementText(e), `${lng} ${e.code}`).toBe(lookup(lng, RULE_ERROR_KEY[e.code]));
    expect(chainText({ code: 'noSteps' })).toBe(lookup(lng, 'noValidWorkflow'));
    expect(chainText({ code: 'tooManySteps', max: 3 })).toBe(lookup(lng, 'tooManySteps'));
    // lastStepOnly names the step in the user's language, not the module's code.
    const enlarge = lookup(lng, 'modules.enlarge') as string;
    expect(chainText({ code: 'lastStepOnly', module: 'enlarge' })).toBe(
      (lookup(lng, 'lastStepOnly') as string).replace('{{module}}', enlarge),
    );
  });
});
