/**
 * Guest identity across logout (spec §7): login binds the guest token to the account (the user store's
 * bootstrap does that once per pair); logout must unbind it, or the logged-out browser's guest token
 * would keep acting for the account.
 */
import { unbindToken } from '../api/endpoints.js';

/**
 * The "already bound" mark of an account and a guest token. Keyed by the account's email: the user
 * token is new at every login and every get_user_token (only its hash is stored on the server).
 */
export const boundKey = (email: string, guestToken: string) => `pixmill.bound.${email}.${guestToken.slice(0, 12)}`;

/** Forgets the account's marks, so the next bootstrap binds the guest token again. */
export function forgetBound(email: string | undefined): void {
  if (!email) return;
  const prefix = `pixmill.bound.${email}.`;
  for (const k of Object.keys(localStorage)) if (k.startsWith(prefix)) localStorage.removeItem(k);
}

/** Unbinds a logged-in user's guest token and forgets the "already bound" marks so the next login binds again. */
export async function unbindGuestBeforeLogout(s: {
  logged: boolean;
  userToken?: string;
  token?: string;
  email?: string;
}): Promise<void> {
  if (!s.logged || !s.userToken || !s.token || s.userToken === s.token) return;
  await unbindToken(s.userToken, s.token).catch(() => undefined);
  forgetBound(s.email);
}
