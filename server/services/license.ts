/** The one place that says what level and limits an account has (spec §4 derivation, §6 table). */
import {
  creditStanding,
  creditsLeft,
  deriveLevel,
  warnsLowCredits,
  limitsFor,
  type Level,
} from '../../src/shared/domain/plans.js';
import type { LicenseView } from '../../src/shared/domain/account.js';
import type { Account } from '../repositories/schema.js';
import type { Principal, ServiceBase } from './base.js';

/** The license answer: one shape for server and client (src/shared/domain/account.ts). */
export type { LicenseView };

export class LicenseService {
  constructor(private readonly deps: ServiceBase) {}

  isExpired(account: Account, now = Date.now()): boolean {
    return account.is_expired === 1 || (account.plan_expires_at !== null && account.plan_expires_at <= now);
  }

  levelOf(account: Account, now = Date.now()): Level {
    return deriveLevel({ logged: account.kind === 'user', isExpired: this.isExpired(account, now), pid: account.pid });
  }

  limitsOf(account: Account) {
    return limitsFor(this.levelOf(account));
  }

  view(p: Principal): LicenseView {
    const a = p.account;
    const left = creditsLeft(a.max_num, a.used_num);
    return {
      user_id: a.id,
      pid: a.pid,
      is_expired: this.isExpired(a),
      max_num: a.max_num,
      used_num: a.used_num,
      user_level: p.level,
      first_name: a.first_name,
      last_name: a.last_name,
      occupation: a.occupation,
      left_credits: left,
      low_credit_warning: warnsLowCredits(creditStanding(a.max_num, a.used_num)),
      compress_max: a.compress_max,
      compress_used: a.compress_used,
      plan_expires_at: a.plan_expires_at,
    };
  }

  points(p: Principal): { max_num: number; used_num: number; left_credits: number } {
    return {
      max_num: p.account.max_num,
      used_num: p.account.used_num,
      left_credits: creditsLeft(p.account.max_num, p.account.used_num),
    };
  }
}
