import { describe, expect, it } from 'vitest';
import { CODE, CODE_TEXT } from './codes.js';

describe('response codes (spec §7–§8), one table', () => {
  it.each([
    ['OK', 200, 'ok'],
    ['COMMON_PARAMETER_ERROR', 1, 'parameter error'],
    ['USERNAME_NOT_EXIST', 2, 'The username does not exist'],
    ['WRONG_PASSWORD', 3, 'wrong password'],
    ['VALIDATION_INVALID', 5, 'Validation is invalid'],
    ['VERIFICATION_FAILED', 6, 'verification failed'],
    ['PARAM_ERROR', 10001, 'parameter error'],
    ['INSUFFICIENT_CREDITS', 10012, 'Insufficient Credits'],
    ['NOT_ENOUGH_POINTS', 30004, 'Not enough points'],
  ] as const)('%s = %i (%s)', (name, code, text) => {
    expect(CODE[name]).toBe(code);
    expect(CODE_TEXT[code]).toBe(text);
  });
  it('has no two names for one number', () => {
    const values = Object.values(CODE);
    expect(new Set(values).size).toBe(values.length);
  });
});
