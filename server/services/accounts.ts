/**
 * Registered accounts (minimal, spec §5 rules): register, login with sessions, logout, the current
 * account, profile fields, and setPlan for operators and tests. Passwords are scrypt hashes.
 */
import { createHmac, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ACCOUNT_TEXT, changePasswordErrors, emailError, NAME_MAX, normalizeEmail, profileErrors, registerErrors, surveyChoices, surveyErrors, type FieldErrors, type AccountView } from '../../src/domain/account.js';
import { CODE } from '../../src/domain/codes.js';
import { PLAN_PERIOD_DAYS } from '../../src/domain/constants.js';
import { creditsLeft, PLAN_LIMITS, planIdFor } from '../../src/domain/plans.js';
import { LANGUAGES as LOCALES } from '../../src/domain/rules.js';
import { ApiError, paramError, unauthorized } from '../http/envelope.js';
import { sql } from 'kysely';
import type { Account } from '../repositories/schema.js';
import type { DbLike } from './credits.js';
import { serverSecret } from '../repositories/secrets.js';
import type { Deps } from './index.js';
import type { Principal } from './tokens.js';

/** Interface languages: the one list in src/domain (spec: en, de, fr, ja). */
export { LOCALES };
/** Price currencies (spec §3 Products). */
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
  return new ApiError(CODE.COMMON_PARAMETER_ERROR, first, 200, { errors });
}

export type { AccountView };

export type PlanLevel = 'register' | 'basic' | 'pro';
export const DAY_MS = 24 * 60 * 60 * 1000;
const grantRef = (what: string, accountId: number, now: number) => `${what}:${accountId}:${now}:${randomBytes(4).toString('hex')}`;

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
    const a = await this.deps.db.selectFrom('accounts').selectAll().where('id', '=', s.account_id).executeTakeFirst();
    return a ? this.settleExpiry(a) : null;
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
      survey: parseSurvey(a.survey_json),
    };
  }

  /**
   * Puts an account on a plan and grants that plan's credits: credits left become the plan's
   * allotment (max_num = used_num + credits), recorded as a ledger grant. For operators and tests.
   */
  async setPlan(accountId: number, level: PlanLevel, expiresAt: number | null = null): Promise<Account> {
    await this.deps.db.transaction().execute((trx) => this.setPlanIn(trx, accountId, level, expiresAt));
    return this.byId(accountId);
  }

  /** setPlan inside the caller's transaction (a payment event applies it together with its own row). */
  async setPlanIn(trx: DbLike, accountId: number, level: PlanLevel, expiresAt: number | null): Promise<void> {
    const lim = PLAN_LIMITS[level];
    const now = Date.now();
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
    await trx.insertInto('credit_ledger').values({ account_id: accountId, ref: grantRef(`plan:${level}`, accountId, now), kind: 'grant', amount: lim.credits, created_at: now }).execute();
  }

  /**
   * Grants a paid plan for `days` (a purchase, or an operator's grant). Buying the plan one already
   * has extends it from its current expiry; another plan starts now.
   */
  async grantPlanIn(trx: DbLike, accountId: number, level: 'basic' | 'pro', days = PLAN_PERIOD_DAYS): Promise<void> {
    const a = await trx.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
    const now = Date.now();
    const live = a.pid === planIdFor(level) && !this.deps.services.license.isExpired(a, now) && a.plan_expires_at !== null;
    const from = live ? Math.max(now, a.plan_expires_at!) : now;
    await this.setPlanIn(trx, accountId, level, from + days * DAY_MS);
  }

  async grantPlan(accountId: number, level: 'basic' | 'pro', days = PLAN_PERIOD_DAYS): Promise<Account> {
    await this.deps.db.transaction().execute((trx) => this.grantPlanIn(trx, accountId, level, days));
    return this.byId(accountId);
  }

  /** Renews the account's paid plan (basic/pro, live or expired) for another period with a fresh allotment. */
  async renewPlanIn(trx: DbLike, accountId: number, days = PLAN_PERIOD_DAYS): Promise<void> {
    const a = await trx.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
    const level = a.pid === planIdFor('pro') ? 'pro' : a.pid === planIdFor('basic') ? 'basic' : null;
    if (!level) throw paramError('the account has no paid plan to renew');
    await this.grantPlanIn(trx, accountId, level, days);
  }

  async renewPlan(accountId: number, days = PLAN_PERIOD_DAYS): Promise<Account> {
    await this.deps.db.transaction().execute((trx) => this.renewPlanIn(trx, accountId, days));
    return this.byId(accountId);
  }

  /**
   * Ends the account's plan: level `expired` with no credits left (the code 10012 path of spec §4),
   * guest-like compress credits. The plan id is kept so a renewal knows which plan it was. Happens once:
   * a second call (or a concurrent one) finds the account already expired and changes nothing.
   */
  async expirePlanIn(trx: DbLike, accountId: number, now = Date.now()): Promise<boolean> {
    const a = await trx.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
    if (a.kind !== 'user') throw new ApiError(CODE.PARAM_ERROR, 'only registered accounts have plans');
    const guestCompress = PLAN_LIMITS.expired.compressCredits;
    const r = await trx
      .updateTable('accounts')
      .set({
        is_expired: 1,
        plan_expires_at: a.plan_expires_at !== null && a.plan_expires_at < now ? a.plan_expires_at : now,
        max_num: sql<number>`used_num`,
        compress_max: sql<number>`compress_used + CASE WHEN compress_max - compress_used < ${guestCompress} THEN (CASE WHEN compress_max > compress_used THEN compress_max - compress_used ELSE 0 END) ELSE ${guestCompress} END`,
        updated_at: now,
      })
      .where('id', '=', accountId)
      .where('is_expired', '=', 0)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    const left = creditsLeft(a.max_num, a.used_num);
    await trx.insertInto('credit_ledger').values({ account_id: accountId, ref: grantRef('expire', accountId, now), kind: 'expire', amount: left, created_at: now }).execute();
    return true;
  }

  async expirePlan(accountId: number): Promise<Account> {
    await this.deps.db.transaction().execute((trx) => this.expirePlanIn(trx, accountId));
    return this.byId(accountId);
  }

  /**
   * A plan whose end date has passed becomes `expired` for real (credits 0), so every answer — licence,
   * transform (10012), point check — agrees. Returns the account as it is now.
   */
  async settleExpiry(a: Account, now = Date.now()): Promise<Account> {
    if (a.kind !== 'user' || a.is_expired === 1 || a.plan_expires_at === null || a.plan_expires_at > now) return a;
    await this.deps.db.transaction().execute((trx) => this.expirePlanIn(trx, a.id, now));
    return this.byId(a.id);
  }

  /** Every account whose plan end has passed (operator command `expire-due`). */
  async expireDue(now = Date.now()): Promise<number> {
    const due = await this.deps.db.selectFrom('accounts').select('id').where('kind', '=', 'user').where('is_expired', '=', 0).where('plan_expires_at', '<=', now).execute();
    let n = 0;
    for (const { id } of due) if (await this.deps.db.transaction().execute((trx) => this.expirePlanIn(trx, id, now))) n++;
    return n;
  }

  /**
   * POST /api/account/password: the old password must be right (code 3 otherwise), the new one follows
   * the register rule and differs from the old. Every session of the account ends; the caller gets a fresh one.
   */
  async changePassword(accountId: number, f: { old_password?: unknown; password?: unknown; confirm_password?: unknown }): Promise<{ sessionId: string }> {
    const errors = changePasswordErrors(f);
    if (Object.keys(errors).length) throw formError(errors);
    const a = await this.byId(accountId);
    if (!(await verifyPassword(String(f.old_password), a.password_hash))) throw new ApiError(CODE.WRONG_PASSWORD, undefined, 200, { errors: { old_password: 'wrong password' } });
    const password_hash = await hashPassword(String(f.password));
    const sessionId = randomBytes(32).toString('base64url');
    const now = Date.now();
    await this.deps.db.transaction().execute(async (trx) => {
      await trx.updateTable('accounts').set({ password_hash, updated_at: now }).where('id', '=', accountId).execute();
      await trx.deleteFrom('sessions').where('account_id', '=', accountId).execute();
      await trx.insertInto('sessions').values({ id: sessionId, account_id: accountId, created_at: now, expires_at: now + SESSION_TTL_MS }).execute();
    });
    return { sessionId };
  }

  /**
   * POST /api/v2/survey/set: the occupation survey (one or more occupations, 'other' with its text).
   * The first answer becomes the profile's occupation when none is set yet.
   */
  async setSurvey(accountId: number, f: { occupations?: unknown; occupation_other?: unknown }): Promise<{ survey: string[]; occupation: string; occupation_other: string }> {
    const errors = surveyErrors(f);
    if (Object.keys(errors).length) throw formError(errors);
    const choices = surveyChoices(f.occupations);
    const a = await this.byId(accountId);
    const other = choices.includes('other') ? String(f.occupation_other).trim() : a.occupation_other;
    const occupation = a.occupation || choices[0]!;
    await this.deps.db
      .updateTable('accounts')
      .set({ survey_json: JSON.stringify(choices), occupation, occupation_other: occupation === 'other' ? other : a.occupation_other, updated_at: Date.now() })
      .where('id', '=', accountId)
      .execute();
    const b = await this.byId(accountId);
    return { survey: parseSurvey(b.survey_json), occupation: b.occupation, occupation_other: b.occupation_other };
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

function parseSurvey(raw: string): string[] {
  try {
    const v = JSON.parse(raw || '[]') as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}
