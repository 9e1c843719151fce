/**
 * Registered accounts (spec §5 rules): register, login (with the per-email lockout), password change,
 * and the account view. Passwords are scrypt hashes. Sessions, plans, profile, nonces and mail live
 * in their own services; this one composes them for the login pages.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { FieldsOf } from '../../src/shared/schemas/common.js';
import type { ChangePassword, Login, Register } from '../../src/shared/schemas/accounts.js';
import {
  ACCOUNT_TEXT,
  changePasswordErrors,
  EMAIL_MAX,
  normalizeEmail,
  PASSWORD_MAX,
  registerErrors,
  type FieldErrors,
  type AccountView,
} from '../../src/shared/domain/account.js';
import { PLAN_LIMITS, planIdFor } from '../../src/shared/domain/plans.js';
import { REASON } from '../../src/shared/domain/reasons.js';
import { paramError, refused } from '../errors.js';
import { AccountRepository } from '../repositories/accountRepository.js';
import type { Account } from '../repositories/schema.js';
import type { ServiceBase } from './base.js';
import type { LicenseService } from './license.js';
import type { LoginThrottleService } from './loginThrottle.js';
import type { MailService } from './mail.js';
import type { PlanService } from './plans.js';
import type { SessionService } from './sessions.js';
import type { TokenService } from './tokens.js';
import type { PlanLevel } from './plans.js';
import { formError } from './forms.js';
import { parseSurvey } from './profile.js';

/** What this service uses: the base (database, configuration, blobs) and the services it calls. */
type Deps = ServiceBase & {
  services: {
    license: LicenseService;
    loginThrottle: LoginThrottleService;
    mail: MailService;
    plans: PlanService;
    sessions: SessionService;
    tokens: TokenService;
  };
};

const SCRYPT: ScryptOptions = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEYLEN = 32;

/**
 * Password hashes run one at a time per process. Each scrypt takes ~16 MB and tens of ms of a core
 * in libuv's pool (4 threads); a burst of registrations or logins ran four at once and took every
 * core of a small machine from the event loop, so other clients waited (a stall probe saw
 * 300 ms). In a queue they use one core; the per-address limits bound the queue.
 */
let hashing: Promise<unknown> = Promise.resolve();

function scrypt(password: string, salt: Buffer): Promise<Buffer> {
  const run = () =>
    new Promise<Buffer>((resolve, reject) =>
      scryptCb(password.normalize('NFKC'), salt, KEYLEN, SCRYPT, (err, key) => (err ? reject(err) : resolve(key))),
    );
  const mine = hashing.then(run, run);
  hashing = mine.catch(() => undefined);
  return mine;
}

async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const key = await scrypt(password, Buffer.from(parts[4]!, 'base64url'));
  const want = Buffer.from(parts[5]!, 'base64url');
  return want.length === key.length && timingSafeEqual(want, key);
}

const isUnique = (e: unknown) => /unique|duplicate/i.test(String(e));

export type { AccountView };

/** What a login (or a registration, which logs in) hands to the browser. */
export interface LoggedIn {
  account: Account;
  /** the pixmill_session cookie value */
  sessionId: string;
  /** a new user token, tied to that session */
  userToken: string;
}

/**
 * Both login failures (unknown email, wrong password) get one answer: code 3 of the spec's table with
 * a text that names neither, so the login form does not tell who has an account. Code 2
 * is no longer sent by login (docs/OPERATIONS.md).
 */
export const LOGIN_FAILED_TEXT = REASON.loginFailed;
const loginFailed = () => paramError('loginFailed');

// A fixed hash to compare against when the email is unknown, so both answers take as long.
let dummyHash: Promise<string> | null = null;

export class AccountService {
  private readonly accounts: AccountRepository;

  constructor(private readonly deps: Deps) {
    this.accounts = new AccountRepository(deps.db);
  }

  /** POST /api/account/register: registering logs the new user in, like the site's register page. */
  async registerAndLogin(f: FieldsOf<typeof Register>, oldSessionId?: string): Promise<LoggedIn> {
    return this.startSession(await this.register(f), oldSessionId);
  }

  /** A 'register' level account (pid 0) with the register plan's credits. */
  async register(f: FieldsOf<typeof Register>): Promise<Account> {
    const errors = registerErrors(f);
    if (Object.keys(errors).length) throw formError(errors);
    const email = normalizeEmail(String(f.email));
    if (await this.accounts.byEmail(email)) throw formError({ email: ACCOUNT_TEXT.emailTaken });
    const now = Date.now();
    const lim = PLAN_LIMITS.register;
    const password_hash = await hashPassword(String(f.password));
    let id: number;
    try {
      id = await this.accounts.insert({
        kind: 'user',
        email,
        password_hash,
        pid: planIdFor('register'),
        max_num: lim.credits,
        compress_max: lim.compressCredits,
        created_at: now,
        updated_at: now,
      });
    } catch (e) {
      // Two registrations racing for one address: the unique index decides.
      if (isUnique(e)) throw formError({ email: ACCOUNT_TEXT.emailTaken });
      throw e;
    }
    return this.byId(id);
  }

  /**
   * POST /api/account/login: code 3 for an unknown email and a wrong password alike, the lockout
   * refusal while the email is locked (checked first, so a right password is refused too). Ends the browser's old session.
   */
  async login(f: FieldsOf<typeof Login>, oldSessionId?: string): Promise<LoggedIn> {
    const errors: FieldErrors = {};
    if (typeof f.email !== 'string' || f.email.trim() === '') errors.email = ACCOUNT_TEXT.required;
    if (typeof f.password !== 'string' || f.password === '') errors.password = ACCOUNT_TEXT.required;
    if (Object.keys(errors).length) throw formError(errors);
    // No address or password is longer than the register rule allows: refused before any lookup or hash.
    if (String(f.email).length > EMAIL_MAX || String(f.password).length > PASSWORD_MAX) throw loginFailed();
    const email = normalizeEmail(String(f.email));
    const throttle = this.deps.services.loginThrottle;
    // The attempt is counted before the password is checked, so parallel guesses cannot outrun the lock.
    const attempts = await throttle.reserve(email);
    const found = await this.accounts.byEmail(email);
    const account = found?.kind === 'user' ? found : null;
    const right = await verifyPassword(
      String(f.password),
      account ? account.password_hash : await (dummyHash ??= hashPassword('timing-equaliser-0')),
    );
    if (!account || !right) {
      await throttle.failed(email, attempts);
      throw loginFailed();
    }
    await throttle.succeeded(email);
    return this.startSession(account, oldSessionId);
  }

  private async startSession(account: Account, oldSessionId: string | undefined): Promise<LoggedIn> {
    const { sessions, tokens } = this.deps.services;
    if (oldSessionId) await sessions.end(oldSessionId);
    const { sessionId, sessionHash } = await sessions.start(account.id);
    return { account, sessionId, userToken: await tokens.issueUserToken(account.id, sessionHash) };
  }

  /**
   * POST /api/account/password: the old password must be right (code 3 otherwise), the new one follows
   * the register rule and differs from the old. Every session and user token of the account ends; the
   * caller gets a fresh session and user token.
   */
  async changePassword(
    accountId: number,
    f: FieldsOf<typeof ChangePassword>,
  ): Promise<{ sessionId: string; userToken: string }> {
    const errors = changePasswordErrors(f);
    if (Object.keys(errors).length) throw formError(errors);
    const a = await this.byId(accountId);
    // No stored password is longer than the register rule allows: a longer one is wrong without hashing it.
    if (
      String(f.old_password).length > PASSWORD_MAX ||
      !(await verifyPassword(String(f.old_password), a.password_hash))
    )
      throw refused({ reason: 'wrongPassword', errors: { old_password: REASON.wrongPassword } });
    const password_hash = await hashPassword(String(f.password));
    const { sessions, tokens } = this.deps.services;
    return this.deps.db.transaction().execute(async (trx) => {
      await new AccountRepository(trx).update(accountId, { password_hash, updated_at: Date.now() });
      await tokens.revokeAll(accountId, trx);
      const fresh = await sessions.start(accountId, trx);
      await sessions.endAll(accountId, fresh.sessionHash, trx);
      return { sessionId: fresh.sessionId, userToken: await tokens.issueUserToken(accountId, fresh.sessionHash, trx) };
    });
  }

  async byId(id: number): Promise<Account> {
    return this.accounts.byIdOrThrow(id);
  }

  async byEmail(email: string): Promise<Account | null> {
    return (await this.accounts.byEmail(normalizeEmail(email))) ?? null;
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

  // Kept for callers outside the account area (tests, benches) that put an account on a plan.
  setPlan(accountId: number, level: PlanLevel, expiresAt: number | null = null): Promise<Account> {
    return this.deps.services.plans.setPlan(accountId, level, expiresAt);
  }

  expirePlan(accountId: number): Promise<Account> {
    return this.deps.services.plans.expirePlan(accountId);
  }

  unsubscribeSignature(email: string): string {
    return this.deps.services.mail.unsubscribeSignature(email);
  }
}
