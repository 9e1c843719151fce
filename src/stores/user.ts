/** User state (spec §3): level, credits, tokens. The only place user state lives. */
import { create } from 'zustand';
import * as endpoints from '../api/endpoints.js';
import { GUEST_CREDITS_COOKIE_DAYS, GUEST_TOKEN_COOKIE_DAYS } from '../shared/domain/constants.js';
import {
  creditStanding,
  creditsLeft,
  deriveLevel,
  limitsFor,
  type CreditStanding,
  type Level,
} from '../shared/domain/plans.js';
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
  bootstrap(): Promise<void>;
  refreshCredits(): Promise<void>;
  /** Spec §4: code 10012 on start sets credits to 0 and level to expired. */
  markExhausted(): void;
  login(email: string, password: string): Promise<void>;
  register(email: string, password: string, confirm: string): Promise<void>;
  logout(): Promise<void>;
}

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

  async bootstrap() {
    const token = await ensureGuestToken();
    let logged: boolean;
    let email: string | undefined;
    try {
      const me = await endpoints.accountMe();
      logged = Boolean(me?.email);
      email = me?.email;
    } catch {
      logged = false;
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
    set({ ready: true });
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

export const selectLimits = (s: UserState) => limitsFor(s.level);
