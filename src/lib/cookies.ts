/** Small cookie helpers: the workspace keeps tokens, flags and activeMode in cookies (spec §3). */
import { SIGNED_IN_COOKIE } from '../shared/domain/account.js';

const DAY_MS = 86_400_000;

export function getCookie(name: string): string | undefined {
  const hit = document.cookie.split('; ').find((c) => c.startsWith(`${encodeURIComponent(name)}=`));
  return hit ? decodeURIComponent(hit.slice(hit.indexOf('=') + 1)) : undefined;
}

/**
 * The Set-Cookie text for `document.cookie`. Over https the cookie is `Secure` (the
 * user_token and guest cookies, credentials both, were written without it and would travel over a
 * plain-http request to the same host); over http (local development) it cannot be.
 */
export function cookieText(name: string, value: string, expires: string, secure: boolean): string {
  return `${encodeURIComponent(name)}=${encodeURIComponent(value)}; expires=${expires}; path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

const servedOverHttps = () => typeof location !== 'undefined' && location.protocol === 'https:';

export function setCookie(name: string, value: string, days: number): void {
  document.cookie = cookieText(name, value, new Date(Date.now() + days * DAY_MS).toUTCString(), servedOverHttps());
}

export function deleteCookie(name: string): void {
  document.cookie = cookieText(name, '', 'Thu, 01 Jan 1970 00:00:00 GMT', servedOverHttps());
}

/** Cookie names of spec §3, in one place. */
export const COOKIE = {
  guestToken: 'guest_token',
  userToken: 'user_token',
  token: 'token',
  userType: 'userType',
  activeMode: 'activeMode',
  guestCredits: 'guest_credits',
  isFirstDrag: 'isFirstDrag',
  isFirstVisit: 'isFirstVisit',
  /** set by the server beside its HttpOnly session cookie: a session may exist (src/shared/domain/account.ts) */
  signedIn: SIGNED_IN_COOKIE,
} as const;
