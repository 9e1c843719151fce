/** Failed-login counters per email (table login_throttle), shared by every API process. */
import { sql } from 'kysely';
import type { Db } from './db.js';
import type { LoginThrottleTable } from './schema.js';
import type { Selectable } from 'kysely';

export type ThrottleRow = Selectable<LoginThrottleTable>;

export class LoginThrottleRepository {
  constructor(private readonly db: Db) {}

  find(email: string): Promise<ThrottleRow | undefined> {
    return this.db.selectFrom('login_throttle').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /**
   * Reserves one attempt in a single conditional upsert, before the password is verified: counts it
   * unless the email is locked or its window already holds `max` attempts. Returns the row after
   * counting, or undefined when refused. Concurrent attempts cannot all pass a separate check: each
   * one's increment is decided by the database (a row lock in PostgreSQL, the one writer in SQLite).
   */
  async reserve(email: string, now: number, windowMs: number, max: number): Promise<ThrottleRow | undefined> {
    const stale = now - windowMs;
    return this.db
      .insertInto('login_throttle')
      .values({ email, failures: 1, window_start: now, locked_until: 0, lockouts: 0, updated_at: now })
      .onConflict((oc) =>
        oc
          .column('email')
          .doUpdateSet({
            failures: sql<number>`CASE WHEN login_throttle.window_start < ${stale} THEN 1 ELSE login_throttle.failures + 1 END`,
            window_start: sql<number>`CASE WHEN login_throttle.window_start < ${stale} THEN ${now} ELSE login_throttle.window_start END`,
            updated_at: now,
          })
          .where(
            sql<boolean>`login_throttle.locked_until <= ${now} AND (login_throttle.window_start < ${stale} OR login_throttle.failures < ${max})`,
          ),
      )
      .returningAll()
      .executeTakeFirst();
  }

  /** Counts one failure atomically; a window older than `windowMs` starts over at 1. */
  async countFailure(email: string, now: number, windowMs: number): Promise<ThrottleRow> {
    const stale = now - windowMs;
    await this.db
      .insertInto('login_throttle')
      .values({ email, failures: 1, window_start: now, locked_until: 0, lockouts: 0, updated_at: now })
      .onConflict((oc) =>
        oc.column('email').doUpdateSet({
          failures: sql<number>`CASE WHEN login_throttle.window_start < ${stale} THEN 1 ELSE login_throttle.failures + 1 END`,
          window_start: sql<number>`CASE WHEN login_throttle.window_start < ${stale} THEN ${now} ELSE login_throttle.window_start END`,
          updated_at: now,
        }),
      )
      .execute();
    return this.db.selectFrom('login_throttle').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  }

  /** Locks the email once its failures reach `max` (only one concurrent caller wins the lock). */
  async lock(email: string, max: number, until: number, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('login_throttle')
      .set({
        locked_until: until,
        lockouts: sql<number>`lockouts + 1`,
        failures: 0,
        window_start: now,
        updated_at: now,
      })
      .where('email', '=', email)
      .where('failures', '>=', max)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async clear(email: string): Promise<void> {
    await this.db.deleteFrom('login_throttle').where('email', '=', email).execute();
  }

  /** Forgets emails with no activity for `idleMs` and no lock running. */
  async prune(now: number, idleMs: number): Promise<void> {
    await this.db
      .deleteFrom('login_throttle')
      .where('updated_at', '<', now - idleMs)
      .where('locked_until', '<', now)
      .execute();
  }
}
