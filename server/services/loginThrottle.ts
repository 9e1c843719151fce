/**
 * Per-email login lockout, on top of the per-address rate limit: LOGIN_MAX_FAILURES wrong passwords
 * for one email within LOGIN_WINDOW_MS lock that email, whatever address the attempts come from.
 * The lock lasts LOGIN_LOCK_MS and doubles with each lockout in a row (capped at LOGIN_LOCK_MAX_MS);
 * during it every attempt is refused, a right password too. A successful login clears the record.
 * Stored in the database, so every API process of a scale-out deployment sees the same counts.
 */
import { reasonMsg } from '../../src/shared/domain/reasons.js';
import { refused, type ApiError } from '../errors.js';
import { LoginThrottleRepository } from '../repositories/loginThrottleRepository.js';
import type { ServiceBase } from './base.js';

const MINUTE_MS = 60 * 1000;
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 15 * MINUTE_MS;
export const LOGIN_LOCK_MS = 15 * MINUTE_MS;
export const LOGIN_LOCK_MAX_MS = 24 * 60 * MINUTE_MS;
/** Records of emails without activity for a day (and no running lock) are forgotten. */
const IDLE_FORGET_MS = 24 * 60 * MINUTE_MS;

/** An account-form refusal (code 1, text on the email field) with HTTP 429; the client can translate by `data.error`. */
const LOGIN_LOCKED_ERROR = 'login_locked';
const loginLockedText = (minutes: number) => reasonMsg({ reason: 'loginLocked', minutes });

/** The lock after `lockouts` earlier lockouts in a row: 15 min, 30, 60, … up to a day. */
export const lockDuration = (lockouts: number) =>
  Math.min(LOGIN_LOCK_MAX_MS, LOGIN_LOCK_MS * 2 ** Math.min(lockouts, 20));

function loginLocked(retryAfterMs: number): ApiError {
  const retry_after = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const minutes = Math.ceil(retry_after / 60);
  return refused({
    reason: 'loginLocked',
    minutes,
    retry_after,
    error: LOGIN_LOCKED_ERROR,
    errors: { email: loginLockedText(minutes) },
  });
}

export class LoginThrottleService {
  private readonly repo: LoginThrottleRepository;

  constructor(deps: ServiceBase) {
    this.repo = new LoginThrottleRepository(deps.db);
  }

  /**
   * Reserves this attempt before the password is checked (one conditional UPDATE, see the
   * repository): at most LOGIN_MAX_FAILURES attempts per window are ever evaluated, however many
   * arrive at once. Throws the lockout refusal while the email is locked or its window is full.
   * Returns how many attempts the window holds with this one. `email` is normalised.
   */
  async reserve(email: string, now = Date.now()): Promise<number> {
    const row = await this.repo.reserve(email, now, LOGIN_WINDOW_MS, LOGIN_MAX_FAILURES);
    if (row) return row.failures;
    const cur = await this.repo.find(email);
    if (cur && cur.locked_until > now) throw loginLocked(cur.locked_until - now);
    // The window is full of attempts still being checked: the lock they lead to is the answer.
    throw loginLocked(lockDuration(cur?.lockouts ?? 0));
  }

  /** The reserved attempt was wrong: locks the email when it was the window's last one. */
  async failed(email: string, attempts: number, now = Date.now()): Promise<void> {
    if (attempts >= LOGIN_MAX_FAILURES) {
      const row = await this.repo.find(email);
      await this.repo.lock(email, LOGIN_MAX_FAILURES, now + lockDuration(row?.lockouts ?? 0), now);
    }
    await this.repo.prune(now, IDLE_FORGET_MS);
  }

  async succeeded(email: string): Promise<void> {
    await this.repo.clear(email);
  }
}
