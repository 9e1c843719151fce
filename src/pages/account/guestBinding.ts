/**
 * Guest identity across login (spec §7): after login the guest token is bound to the account, which
 * moves the guest's uploads and works to it; on logout it is unbound again. Called by the user store.
 */
import { api, call, form } from '../../api/client.js';

export const bindToken = (userToken: string, guestToken: string) =>
  call<{ moved_uploads: number; moved_jobs: number }>(api, { method: 'POST', url: '/api/v2/bind_token', data: form({ token: userToken, guest_token_v2: guestToken }) });

export const unbindToken = (userToken: string, guestToken: string) => call<null>(api, { method: 'POST', url: '/api/v2/unbind_token', data: form({ token: userToken, guest_token_v2: guestToken }) });

/** Binds when logged in with a user token distinct from the guest token; a failure never blocks the login. */
export async function bindGuestAfterLogin(s: { logged: boolean; userToken?: string; token?: string }): Promise<number> {
  if (!s.logged || !s.userToken || !s.token || s.userToken === s.token) return 0;
  try {
    const r = await bindToken(s.userToken, s.token);
    return r.moved_uploads + r.moved_jobs;
  } catch {
    return 0;
  }
}

export async function unbindGuestBeforeLogout(s: { logged: boolean; userToken?: string; token?: string }): Promise<void> {
  if (!s.logged || !s.userToken || !s.token || s.userToken === s.token) return;
  await unbindToken(s.userToken, s.token).catch(() => undefined);
}
