import { describe, expect, it } from 'vitest';
import { secretHash, slideExpiry, TOKEN_REFRESH_MS } from './tokens.js';
import { lockDuration, LOGIN_LOCK_MAX_MS, LOGIN_LOCK_MS } from './loginThrottle.js';

const TTL = 30 * 86_400_000;
const NOW = 1_800_000_000_000;

describe('slideExpiry', () => {
  it.each([
    ['expired', NOW - 1, null],
    ['expires right now', NOW, null],
    ['refreshed just now: no write', NOW + TTL, { expiresAt: NOW + TTL, changed: false }],
    [
      'refreshed less than an interval ago: no write',
      NOW + TTL - TOKEN_REFRESH_MS + 1,
      { expiresAt: NOW + TTL - TOKEN_REFRESH_MS + 1, changed: false },
    ],
    ['refreshed an interval ago: slides', NOW + TTL - TOKEN_REFRESH_MS, { expiresAt: NOW + TTL, changed: true }],
    ['last used long ago but not expired: slides', NOW + 1000, { expiresAt: NOW + TTL, changed: true }],
  ])('%s', (_name, expiresAt, want) => {
    expect(slideExpiry(expiresAt, TTL, NOW)).toEqual(want);
  });
});

describe('lockDuration', () => {
  it.each([
    [0, LOGIN_LOCK_MS],
    [1, 2 * LOGIN_LOCK_MS],
    [2, 4 * LOGIN_LOCK_MS],
    [6, 64 * LOGIN_LOCK_MS],
    [7, LOGIN_LOCK_MAX_MS],
    [1000, LOGIN_LOCK_MAX_MS],
  ])('after %i lockouts in a row', (lockouts, want) => {
    expect(lockDuration(lockouts)).toBe(want);
  });
});

it('stored hashes are SHA-256 hex and differ from the token', () => {
  expect(secretHash('u_abc')).toMatch(/^[0-9a-f]{64}$/);
  expect(secretHash('u_abc')).not.toBe(secretHash('u_abd'));
});
