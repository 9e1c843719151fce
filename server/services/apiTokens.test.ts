import { describe, expect, it } from 'vitest';
import { monthKey } from '../repositories/apiTokenRepository.js';
import { apiTokenHash, entitlementOf, isApiTokenShape } from './apiTokens.js';

describe('API tokens', () => {
  it('rest on Pro, an API pack, or a free account (every registered account may hold one)', () => {
    expect(entitlementOf('pro', false)).toBe('pro');
    expect(entitlementOf('pro', true)).toBe('pro');
    for (const level of ['guest', 'register', 'basic', 'expired'] as const) {
      expect(entitlementOf(level, false)).toBe('free');
      expect(entitlementOf(level, true)).toBe('api_plan');
    }
  });

  it('have one shape: pxm_ and 43 base64url characters; site tokens and anything else are not API tokens', () => {
    expect(isApiTokenShape(`pxm_${'A'.repeat(43)}`)).toBe(true);
    for (const t of [
      `pxm_${'A'.repeat(42)}`,
      `pxm_${'A'.repeat(44)}`,
      `u_${'A'.repeat(32)}`,
      `pxm_${'A'.repeat(42)}=`,
      '',
      undefined,
      42,
    ])
      expect(isApiTokenShape(t)).toBe(false);
  });

  it('are stored as a SHA-256 hex digest', () => {
    expect(apiTokenHash('pxm_x')).toMatch(/^[0-9a-f]{64}$/);
    expect(apiTokenHash('pxm_x')).not.toBe(apiTokenHash('pxm_y'));
  });

  it('count calls per UTC month', () => {
    expect(monthKey(Date.UTC(2026, 10, 30, 23, 59))).toBe('2026-11');
    expect(monthKey(Date.UTC(2026, 11, 1, 0, 0))).toBe('2026-12');
  });
});
