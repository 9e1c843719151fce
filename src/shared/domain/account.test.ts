import { describe, expect, it } from 'vitest';
import { ACCOUNT_TEXT, emailError, passwordError, profileErrors, registerErrors } from './account.js';

describe('account rules (spec §5)', () => {
  it.each([
    ['', ACCOUNT_TEXT.required],
    ['abc12', ACCOUNT_TEXT.password],
    ['abcdefgh', ACCOUNT_TEXT.password],
    ['12345678', ACCOUNT_TEXT.password],
    ['abcd 1234', ACCOUNT_TEXT.password],
    ['a1'.repeat(24) + 'x', ACCOUNT_TEXT.password],
    ['abcd1234', null],
    ['a1'.repeat(24), null],
    ['Pässwort1', null],
  ])('password %j', (pw, want) => expect(passwordError(pw)).toBe(want));

  it.each([
    ['', ACCOUNT_TEXT.required],
    ['a@b', ACCOUNT_TEXT.email],
    ['a b@c.de', ACCOUNT_TEXT.email],
    ['name@example.com', null],
    ['first.last+tag@sub.example.co.jp', null],
  ])('email %j', (e, want) => expect(emailError(e)).toBe(want));

  it('register: confirmation must match; profile: other needs its text', () => {
    expect(registerErrors({ email: 'a@b.co', password: 'abcd1234', confirm_password: 'abcd1235' })).toEqual({
      confirm_password: ACCOUNT_TEXT.passwordMismatch,
    });
    expect(registerErrors({ email: 'a@b.co', password: 'abcd1234', confirm_password: 'abcd1234' })).toEqual({});
    expect(profileErrors({ first_name: 'A', last_name: 'B', occupation: 'other', occupation_other: ' ' })).toEqual({
      occupation_other: ACCOUNT_TEXT.required,
    });
    expect(profileErrors({ first_name: 'A', last_name: 'B', occupation: 'designer' })).toEqual({});
  });
});
