// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { cookieText, deleteCookie, getCookie, setCookie } from './cookies.js';

describe('cookies', () => {
  it('are Secure when the app is served over https, and not over http', () => {
    expect(cookieText('user_token', 'abc', 'Thu, 01 Jan 2099 00:00:00 GMT', true)).toBe(
      'user_token=abc; expires=Thu, 01 Jan 2099 00:00:00 GMT; path=/; SameSite=Lax; Secure',
    );
    expect(cookieText('guest_token', 'g', 'Thu, 01 Jan 2099 00:00:00 GMT', false)).not.toMatch(/Secure/);
  });

  it('still round-trip on an http page (jsdom serves http://localhost)', () => {
    setCookie('guest_token', 'g 1', 1);
    expect(getCookie('guest_token')).toBe('g 1');
    deleteCookie('guest_token');
    expect(getCookie('guest_token')).toBeUndefined();
  });
});
