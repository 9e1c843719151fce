/** Small cookie helpers: the workspace keeps tokens, flags and activeMode in cookies (spec §3). */
const DAY_MS = 86_400_000;

export function getCookie(name: string): string | undefined {
  const hit = document.cookie.split('; ').find((c) => c.startsWith(`${encodeURIComponent(name)}=`));
  return hit ? decodeURIComponent(hit.slice(hit.indexOf('=') + 1)) : undefined;
}

export function setCookie(name: string, value: string, days: number): void {
  const expires = new Date(Date.now() + days * DAY_MS).toUTCString();
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; expires=${expires}; path=/; SameSite=Lax`;
}

export function deleteCookie(name: string): void {
  document.cookie = `${encodeURIComponent(name)}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; SameSite=Lax`;
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
} as const;
