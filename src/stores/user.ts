/** User state (spec §3): level, credits, tokens. The only place user state lives. */
import { create } from 'zustand';
import { ApiError } from '../api/client.js';
import * as endpoints from '../api/endpoints.js';
import { GUEST_CREDITS_COOKIE_DAYS, GUEST_TOKEN_COOKIE_DAYS } from '../shared/domain/constants.js';
import { creditStanding, creditsLeft, deriveLevel, type CreditStanding, type Level } from '../shared/domain/plans.js';
import { COOKIE, deleteCookie, getCookie, setCookie } from '../lib/cookies.js';
import { boundKey, unbindGuestBeforeLogout } from './guestBinding.js';

export interface UserState {
  ready: boolean;
  logged: boolean;
  level: Level;
  credits: number;
  /** fresh / low / empty / ok (src/shared/domain/plans.ts creditStanding): which credit note to show */
  creditStanding: CreditStanding;
  email?: string;
  /** the guest token (guest_token_v2) */
  token?: string;
  userToken?: string;
  /** days the server keeps this plan's results and uploads (retention), once known */
  retentionDays?: number;
  /**
   * The network was away when the account was asked for: plan, credits and name are the last known
   * ones (kept in this browser), shown marked offline, until the server answers again.
   */
  offline: boolean;
  /** The account from the server; offline, the last known one marked offline (and the failure rethrown). */
  bootstrap(): Promise<void>;
  /** The account from the server (bootstrap without the offline fallback). */
  bootstrapOnline(): Promise<void>;
  refreshCredits(): Promise<void>;
  /** Spec §4: code 10012 on start sets credits to 0 and level to expired. */
  markExhausted(): void;
  login(email: string, password: string): Promise<void>;
  register(email: string, password: string, confirm: string): Promise<void>;
  logout(): Promise<void>;
}

/** The last account the server answered, kept for an offline reload (plan, credits and name). */
const LAST_ACCOUNT_KEY = 'pixmill.lastAccount';
type LastAccount = Pick<UserState, 'logged' | 'email' | 'level' | 'credits' | 'creditStanding' | 'retentionDays'>;

function saveLastAccount(s: UserState): void {
  const last: LastAccount = {
    logged: s.logged,
    email: s.email,
    level: s.level,
    credits: s.credits,
    creditStanding: s.creditStanding,
    retentionDays: s.retentionDays,
  };
  try {
    localStorage.setItem(LAST_ACCOUNT_KEY, JSON.stringify(last));
  } catch {
    // storage refused: an offline reload then shows the account as unknown
  }
}

/** The last known account, when it is one (anything else stored there is ignored). */
export function lastAccount(): LastAccount | undefined {
  try {
    const v = JSON.parse(localStorage.getItem(LAST_ACCOUNT_KEY) ?? 'null') as Partial<LastAccount> | null;
    if (!v || typeof v.logged !== 'boolean' || typeof v.credits !== 'number' || typeof v.level !== 'string')
      return undefined;
    return v as LastAccount;
  } catch {
    return undefined;
  }
}

/** A failure that says the network is away (no answer at all), not a refusal by the server. */
const networkAway = (e: unknown) =>
  (typeof navigator !== 'undefined' && navigator.onLine === false) || !(e instanceof ApiError);

async function ensureGuestToken(): Promise<string> {
  const existing = getCookie(COOKIE.guestToken);
  if (existing) return existing;
  const { token } = await endpoints.guestToken();
  setCookie(COOKIE.guestToken, token, GUEST_TOKEN_COOKIE_DAYS);
  return token;
}

/** After login the site hands out the user token through its ajax endpoint. */
async function fetchUserToken(): Promise<string> {
  const data = await endpoints.siteAjax<{ user_token?: string; token?: string } | string>('get_user_token');
  const t = typeof data === 'string' ? data : (data.user_token ?? data.token);
  if (!t) throw new Error('no user token');
  return t;
}

export const useUser = create<UserState>((set, get) => ({
  ready: false,
  logged: false,
  level: 'guest',
  credits: 0,
  creditStanding: 'empty',
  offline: false,

  async bootstrap() {
    try {
      await get().bootstrapOnline();
    } catch (e) {
      // Offline: the last known account, marked offline, instead of a guest with no credits.
      const last = networkAway(e) ? lastAccount() : undefined;
      if (last) set({ ...last, offline: true, ready: true, token: getCookie(COOKIE.guestToken) });
      throw e;
    }
  },

  async bootstrapOnline() {
    const token = await ensureGuestToken();
    let logged = false;
    let email: string | undefined;
    // Only a browser the server marked as holding a session asks who is signed in: a guest's load makes
    // no call that is refused (401), which the console would show as an error.
    if (getCookie(COOKIE.signedIn)) {
      try {
        const me = await endpoints.accountMe();
        logged = Boolean(me?.email);
        email = me?.email;
      } catch {
        logged = false;
      }
    }
    let userToken = token;
    if (logged) {
      try {
        userToken = await fetchUserToken();
        setCookie(COOKIE.token, userToken, GUEST_TOKEN_COOKIE_DAYS);
        // The guest's uploads and results follow the user who just logged in (once per pair).
        const bound = boundKey(email ?? '', token);
        // Marked bound only once the server has bound it, so a failed bind is tried again next time.
        if (!localStorage.getItem(bound))
          await endpoints.bindToken(userToken, token).then(
            () => localStorage.setItem(bound, '1'),
            () => undefined,
          );
      } catch {
        logged = false;
      }
    } else {
      deleteCookie(COOKIE.token);
    }
    setCookie(COOKIE.userToken, userToken, GUEST_TOKEN_COOKIE_DAYS);
    set({ token, userToken, logged, email });
    await get().refreshCredits();
    set({ ready: true, offline: false });
    saveLastAccount(get());
  },

  async refreshCredits() {
    const tok = get().userToken ?? get().token;
    if (!tok) return;
    const lic = await endpoints.license(tok);
    const level = deriveLevel({ logged: get().logged, isExpired: Boolean(lic.is_expired), pid: Number(lic.pid) });
    const credits = creditsLeft(lic.max_num, lic.used_num);
    if (level === 'basic' || level === 'pro') setCookie(COOKIE.userType, level, GUEST_CREDITS_COOKIE_DAYS);
    else deleteCookie(COOKIE.userType);
    if (!get().logged) setCookie(COOKIE.guestCredits, String(credits), GUEST_CREDITS_COOKIE_DAYS);
    const levelChanged = level !== get().level;
    set({ level, credits, creditStanding: creditStanding(lic.max_num, lic.used_num) });
    // Retention depends on the plan: ask again only when the level changed.
    if (levelChanged || get().retentionDays === undefined) {
      const r = await endpoints.retention(tok).catch(() => null);
      if (r) set({ retentionDays: r.retention_days });
    }
    if (get().ready) saveLastAccount(get());
  },

  markExhausted() {
    set({ credits: 0, creditStanding: 'empty', level: 'expired' });
  },

  async login(email, password) {
    await endpoints.accountLogin(email, password);
    await get().bootstrap();
  },

  async register(email, password, confirm) {
    await endpoints.accountRegister(email, password, confirm);
    await get().bootstrap();
  },

  async logout() {
    // The guest token stops pointing at this user before the session ends.
    // It also forgets that this pair was bound, so the next login binds again.
    await unbindGuestBeforeLogout(get());
    await endpoints.accountLogout().catch(() => undefined);
    deleteCookie(COOKIE.token);
    set({ logged: false, email: undefined });
    await get().bootstrap();
  },
}));
