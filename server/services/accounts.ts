/**
 * Registered accounts (minimal, spec §5 rules): register, login with sessions, logout, the current
 * account, profile fields, and setPlan for operators and tests. Passwords are scrypt hashes.
 */
import { createHmac, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ACCOUNT_TEXT, emailError, NAME_MAX, normalizeEmail, profileErrors, registerErrors, type FieldErrors } from '../../src/domain/account.js';
import { CODE } from '../../src/domain/codes.js';
import { PLAN_LIMITS, planIdFor } from '../../src/domain/plans.js';
import { ApiError, paramError, unauthorized } from '../http/envelope.js';
import type { Account } from '../repositories/schema.js';
import { serverSecret } from '../repositories/secrets.js';
import type { Deps } from './index.js';
import type { Principal } from './tokens.js';

/** Interface languages (spec: en, de, fr, ja) and price currencies (spec §3 Products). */
export const LOCALES = ['en', 'de', 'fr', 'ja'] as const;
export const CURRENCIES = ['USD', 'EUR', 'JPY'] as const;

export const SESSION_COOKIE = 'pixmill_session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A site ajax nonce stays valid this long (like a WordPress nonce's day). */
export const NONCE_TTL_MS = 24 * 60 * 60 * 1000;

const SCRYPT: ScryptOptions = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEYLEN = 32;

function scrypt(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password.normalize('NFKC'), salt, KEYLEN, SCRYPT, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const key = await scrypt(password, Buffer.from(parts[4]!, 'base64url'));
  const want = Buffer.from(parts[5]!, 'base64url');
  return want.length === key.length && timingSafeEqual(want, key);
}

/** Form refusals: code 1 with the first field's text; every field's text in data.errors. */
export function formError(errors: FieldErrors): ApiError {
  const first = Object.values(errors)[0] ?? ACCOUNT_TEXT.required;
  return new ApiError(CODE.PARAMETER_ERROR, first, 200, { errors });
}

export interface AccountView {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  occupation: string;
  occupation_other: string;
  pid: number;
  level: string;
  max_num: number;
  used_num: number;
  plan_expires_at: number | null;
}

// A fixed hash to compare against when the email is unknown, so both answers take as long.
let dummyHash: Promise<string> | null = null;

export class AccountService {
  constructor(private readonly deps: Deps) {}

  /** POST /api/account/register: a 'register' level account (pid 0) with the register plan's credits. */
  async register(f: { email?: unknown; password?: unknown; confirm_password?: unknown }): Promise<Account> {
    const errors = registerErrors(f);
    if (Object.keys(errors).length) throw formError(errors);
    const email = normalizeEmail(String(f.email));
    const db = this.deps.db;
    if (await db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirst()) throw formError({ email: ACCOUNT_TEXT.emailTaken });
    const now = Date.now();
    const lim = PLAN_LIMITS.register;
    const password_hash = await hashPassword(String(f.password));
    try {
      const { id } = await db
        .insertInto('accounts')
        .values({ kind: 'user', email, password_hash, pid: planIdFor('register'), max_num: lim.credits, compress_max: lim.compressCredits, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return this.byId(id);
    } catch (e) {
      // Two registrations racing for one address: the unique index decides.
      if (/unique|duplicate/i.test(String(e))) throw formError({ email: ACCOUNT_TEXT.emailTaken });
      throw e;
    }
  }

  /** POST /api/account/login: code 2 unknown email, 3 wrong password; returns a fresh session id. */
  async login(f: { email?: unknown; password?: unknown }, oldSessionId?: string): Promise<{ sessionId: string; account: Account }> {
    const errors: FieldErrors = {};
    if (typeof f.email !== 'string' || f.email.trim() === '') errors.email = ACCOUNT_TEXT.required;
    if (typeof f.password !== 'string' || f.password === '') errors.password = ACCOUNT_TEXT.required;
    if (Object.keys(errors).length) throw formError(errors);
    const account = await this.deps.db.selectFrom('accounts').selectAll().where('email', '=', normalizeEmail(String(f.email))).where('kind', '=', 'user').executeTakeFirst();
    if (!account) {
      await verifyPassword(String(f.password), await (dummyHash ??= hashPassword('timing-equaliser-0')));
      throw new ApiError(CODE.USERNAME_NOT_EXIST);
    }
    if (!(await verifyPassword(String(f.password), account.password_hash))) throw new ApiError(CODE.WRONG_PASSWORD);
    if (oldSessionId) await this.logout(oldSessionId);
    const sessionId = randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.deps.db.insertInto('sessions').values({ id: sessionId, account_id: account.id, created_at: now, expires_at: now + SESSION_TTL_MS }).execute();
    return { sessionId, account };
  }

  async logout(sessionId: string | undefined): Promise<void> {
    if (sessionId) await this.deps.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  }

  /** The account of a live session, or null. */
  async sessionAccount(sessionId: string | undefined): Promise<Account | null> {
    if (!sessionId || sessionId.length > 100) return null;
    const s = await this.deps.db.selectFrom('sessions').selectAll().where('id', '=', sessionId).executeTakeFirst();
    if (!s) return null;
    if (s.expires_at <= Date.now()) {
      await this.logout(sessionId);
      return null;
    }
    return (await this.deps.db.selectFrom('accounts').selectAll().where('id', '=', s.account_id).executeTakeFirst()) ?? null;
  }

  async byId(id: number): Promise<Account> {
    return this.deps.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async byEmail(email: string): Promise<Account | null> {
    return (await this.deps.db.selectFrom('accounts').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst()) ?? null;
  }

  view(a: Account): AccountView {
    return {
      id: a.id,
      email: a.email ?? '',
      first_name: a.first_name,
      last_name: a.last_name,
      occupation: a.occupation,
      occupation_other: a.occupation_other,
      pid: a.pid,
      level: this.deps.services.license.levelOf(a),
      max_num: a.max_num,
      used_num: a.used_num,
      plan_expires_at: a.plan_expires_at,
    };
  }

  /**
   * Puts an account on a plan and grants that plan's credits: credits left become the plan's
   * allotment (max_num = used_num + credits), recorded as a ledger grant. For operators and tests.
   */
  async setPlan(accountId: number, level: 'register' | 'basic' | 'pro', expiresAt: number | null = null): Promise<Account> {
    const lim = PLAN_LIMITS[level];
    const now = Date.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const a = await trx.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
      if (a.kind !== 'user') throw new ApiError(CODE.PARAM_ERROR, 'only registered accounts have plans');
      await trx
        .updateTable('accounts')
        .set({
          pid: planIdFor(level),
          plan_expires_at: expiresAt,
          is_expired: 0,
          max_num: a.used_num + lim.credits,
          compress_max: a.compress_used + lim.compressCredits,
          updated_at: now,
        })
        .where('id', '=', accountId)
        .execute();
      await trx
        .insertInto('credit_ledger')
        .values({ account_id: accountId, ref: `plan:${level}:${accountId}:${now}:${randomBytes(4).toString('hex')}`, kind: 'grant', amount: lim.credits, created_at: now })
        .execute();
    });
    return this.byId(accountId);
  }

  /** POST /api/v2/profile/set (spec §5: names and occupation required; 'other' needs its free text). */
  async setProfile(accountId: number, f: { first_name?: unknown; last_name?: unknown; occupation?: unknown; occupation_other?: unknown }): Promise<Account> {
    const errors = profileErrors(f);
    if (Object.keys(errors).length) throw formError(errors);
    await this.deps.db
      .updateTable('accounts')
      .set({
        first_name: String(f.first_name).trim(),
        last_name: String(f.last_name).trim(),
        occupation: String(f.occupation),
        occupation_other: f.occupation === 'other' ? String(f.occupation_other).trim() : '',
        updated_at: Date.now(),
      })
      .where('id', '=', accountId)
      .execute();
    return this.byId(accountId);
  }

  /** A site ajax nonce: issue time and an HMAC bound to the session (or to "anonymous" without one). */
  issueNonce(sessionId: string | undefined, now = Date.now()): string {
    const ts = now.toString(36);
    return `${ts}.${this.nonceSig(ts, sessionId)}`;
  }

  checkNonce(nonce: unknown, sessionId: string | undefined, now = Date.now()): boolean {
    if (typeof nonce !== 'string' || nonce.length > 100) return false;
    const [ts, sig] = nonce.split('.');
    if (!ts || !sig) return false;
    const issued = parseInt(ts, 36);
    if (!Number.isFinite(issued) || issued > now + 60_000 || now - issued > NONCE_TTL_MS) return false;
    const want = Buffer.from(this.nonceSig(ts, sessionId));
    const got = Buffer.from(sig);
    return want.length === got.length && timingSafeEqual(want, got);
  }

  private nonceSig(ts: string, sessionId: string | undefined): string {
    return createHmac('sha256', serverSecret(this.deps.config.dataDir))
      .update(`site-ajax|${ts}|${sessionId ?? 'anonymous'}`)
      .digest('base64url')
      .slice(0, 32);
  }

  /**
   * POST /api/v2/user_info/update: locale and currency for anyone; first_name/last_name only for
   * a logged-in user. Only the fields sent change.
   */
  async updateUserInfo(p: Principal, f: { locale?: unknown; currency?: unknown; first_name?: unknown; last_name?: unknown }) {
    const set: { locale?: string; currency?: string; first_name?: string; last_name?: string } = {};
    if (f.locale !== undefined) {
      if (!(LOCALES as readonly unknown[]).includes(f.locale)) throw paramError(`locale must be one of ${LOCALES.join(', ')}`);
      set.locale = String(f.locale);
    }
    if (f.currency !== undefined) {
      if (!(CURRENCIES as readonly unknown[]).includes(f.currency)) throw paramError(`currency must be one of ${CURRENCIES.join(', ')}`);
      set.currency = String(f.currency);
    }
    for (const k of ['first_name', 'last_name'] as const) {
      if (f[k] === undefined) continue;
      if (!p.logged) throw unauthorized();
      const v = String(f[k]).trim();
      if (!v) throw formError({ [k]: ACCOUNT_TEXT.required });
      if (v.length > NAME_MAX) throw formError({ [k]: ACCOUNT_TEXT.nameTooLong });
      set[k] = v;
    }
    if (Object.keys(set).length === 0) throw paramError('nothing to update');
    await this.deps.db.updateTable('accounts').set({ ...set, updated_at: Date.now() }).where('id', '=', p.accountId).execute();
    const a = await this.byId(p.accountId);
    return { locale: a.locale, currency: a.currency, first_name: a.first_name, last_name: a.last_name };
  }

  /** The signature a mail's unsubscribe link carries, so nobody can unsubscribe someone else. */
  unsubscribeSignature(email: string): string {
    return createHmac('sha256', serverSecret(this.deps.config.dataDir)).update(`unsubscribe|${normalizeEmail(email)}`).digest('base64url').slice(0, 32);
  }

  /** POST /api/mail/unsubscribe: with the link's sig, or for the logged-in caller's own address. */
  async unsubscribe(email: unknown, sig: unknown, caller: Principal | null): Promise<{ email: string; unsubscribed: true }> {
    const err = emailError(email);
    if (err) throw formError({ email: err });
    const e = normalizeEmail(String(email));
    const own = caller?.logged && caller.account.email === e;
    const signed = typeof sig === 'string' && sig.length === 32 && timingSafeEqual(Buffer.from(sig), Buffer.from(this.unsubscribeSignature(e)));
    if (!own && !signed) throw new ApiError(CODE.VALIDATION_INVALID);
    await this.deps.db
      .insertInto('mail_optouts')
      .values({ email: e, created_at: Date.now() })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
    return { email: e, unsubscribed: true };
  }

  /** POST /api/v2/common/email_status: whether an address has an account and still receives mail. */
  async emailStatus(email: unknown): Promise<{ email: string; registered: true; mail_subscribed: boolean }> {
    const err = emailError(email);
    if (err) throw formError({ email: err });
    const e = normalizeEmail(String(email));
    const a = await this.byEmail(e);
    if (!a || a.kind !== 'user') throw formError({ email: ACCOUNT_TEXT.emailMissing });
    const out = await this.deps.db.selectFrom('mail_optouts').select('email').where('email', '=', e).executeTakeFirst();
    return { email: e, registered: true, mail_subscribed: !out };
  }
}
