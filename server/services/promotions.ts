/**
 * Small promotion records per account (spec §7 Misc): the offer countdown, share codes and their
 * binding (type anniversary_2021), and the daily giveaway check-in. Stored in `promotions` (002).
 */
import { randomBytes } from 'node:crypto';
import { SHARE_TYPES } from '../../src/shared/schemas/promotions.js';
import { paramError } from '../errors.js';
import { PromotionRepository } from '../repositories/promotionRepository.js';
import type { ServiceBase } from './base.js';
import type { Principal } from './tokens.js';

/** Length of the offer countdown that starts at an account's first visit (our choice: one day). */
const COUNT_DOWN_MS = 24 * 60 * 60 * 1000;
export { SHARE_TYPES };
const SHARE_CODE = /^[A-Z2-9]{8}$/;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const isUnique = (e: unknown) => /unique|duplicate/i.test(String(e));

export class PromotionService {
  private readonly promotions: PromotionRepository;

  constructor(deps: ServiceBase) {
    this.promotions = new PromotionRepository(deps.db);
  }

  /** POST /api/v2/common/count_down: the countdown starts once per account and then runs out. */
  async countDown(p: Principal, now = Date.now()): Promise<{ start_at: number; end_at: number; remaining_ms: number }> {
    await this.promotions.insertOnce(p.accountId, 'count_down', '', String(now), now);
    const start = Number(await this.promotions.value(p.accountId, 'count_down'));
    const end = start + COUNT_DOWN_MS;
    return { start_at: start, end_at: end, remaining_ms: Math.max(0, end - now) };
  }

  /** GET /api/promotion/share/code: the account's stable share code, created on first ask. */
  async shareCode(p: Principal): Promise<{ code: string }> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const existing = await this.promotions.value(p.accountId, 'share_code');
      if (existing) return { code: existing };
      const code = Array.from(randomBytes(8), (b) => ALPHABET[b % ALPHABET.length]).join('');
      if (await this.promotions.ownerOf('share_code', code)) continue;
      await this.promotions.insertOnce(p.accountId, 'share_code', '', code, Date.now()).catch((e: unknown) => {
        if (!isUnique(e)) throw e;
      });
    }
    const code = await this.promotions.value(p.accountId, 'share_code');
    if (!code) throw new Error('could not create a share code');
    return { code };
  }

  /** GET /api/promotion/share/bind: records who shared with this account, once per promotion type. */
  /** Binds the caller to a share code's owner; the answer names the code, never the owner's internal account id. */
  async shareBind(
    p: Principal,
    type: (typeof SHARE_TYPES)[number],
    codeRaw: string,
  ): Promise<{ bound: true; type: string; code: string }> {
    // one reason for a code of the wrong shape and an unknown one
    const code = codeRaw.trim().toUpperCase();
    if (!SHARE_CODE.test(code)) throw paramError('shareCodeInvalid');
    const owner = await this.promotions.ownerOf('share_code', code);
    if (owner === undefined) throw paramError('shareCodeInvalid');
    if (owner === p.accountId) throw paramError('shareCodeOwn');
    const kind = `share_bind:${type}`;
    // The first code bound wins (the unique row decides between concurrent binds); repeating it is fine.
    await this.promotions.insertOnce(p.accountId, kind, '', code, Date.now());
    if ((await this.promotions.value(p.accountId, kind)) !== code) throw paramError('shareCodeUsed');
    return { bound: true, type, code };
  }

  /** GET /api/promotion/giveaway/checkin: one check-in per UTC day. */
  async checkin(p: Principal, now = Date.now()): Promise<{ day: string; new_checkin: boolean; days: number }> {
    const day = utcDay(now);
    const inserted = await this.promotions.insertOnce(p.accountId, 'checkin', day, '', now);
    return { day, new_checkin: inserted, days: await this.promotions.count(p.accountId, 'checkin') };
  }
}
