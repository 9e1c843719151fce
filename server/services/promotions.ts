/**
 * Small promotion records per account (spec §7 Misc): the offer countdown, share codes and their
 * binding (type anniversary_2021), and the daily giveaway check-in. Stored in `promotions` (002).
 */
import { randomBytes } from 'node:crypto';
import { paramError } from '../errors.js';
import type { Deps } from './index.js';
import type { Principal } from './tokens.js';

/** Length of the offer countdown that starts at an account's first visit (our choice: one day). */
export const COUNT_DOWN_MS = 24 * 60 * 60 * 1000;
export const SHARE_TYPES = ['anniversary_2021'] as const;
const SHARE_CODE = /^[A-Z2-9]{8}$/;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export const PROMOTION_TEXT = {
  unknownType: 'unknown promotion type',
  badCode: 'This share code is not valid.',
  ownCode: 'You cannot use your own share code.',
  alreadyBound: 'A share code has already been used for this promotion.',
} as const;

const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const isUnique = (e: unknown) => /unique|duplicate/i.test(String(e));

export class PromotionService {
  constructor(private readonly deps: Deps) {}

  /** POST /api/v2/common/count_down: the countdown starts once per account and then runs out. */
  async countDown(p: Principal, now = Date.now()): Promise<{ start_at: number; end_at: number; remaining_ms: number }> {
    const db = this.deps.db;
    await db
      .insertInto('promotions')
      .values({ account_id: p.accountId, kind: 'count_down', key: '', value: String(now), created_at: now })
      .onConflict((oc) => oc.columns(['account_id', 'kind', 'key']).doNothing())
      .execute();
    const row = await db.selectFrom('promotions').select('value').where('account_id', '=', p.accountId).where('kind', '=', 'count_down').executeTakeFirstOrThrow();
    const start = Number(row.value);
    const end = start + COUNT_DOWN_MS;
    return { start_at: start, end_at: end, remaining_ms: Math.max(0, end - now) };
  }

  /** GET /api/promotion/share/code: the account's stable share code, created on first ask. */
  async shareCode(p: Principal): Promise<{ code: string }> {
    const db = this.deps.db;
    for (let attempt = 0; attempt < 5; attempt++) {
      const existing = await db.selectFrom('promotions').select('value').where('account_id', '=', p.accountId).where('kind', '=', 'share_code').executeTakeFirst();
      if (existing) return { code: existing.value };
      const bytes = randomBytes(8);
      const code = Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('');
      const clash = await db.selectFrom('promotions').select('id').where('kind', '=', 'share_code').where('value', '=', code).executeTakeFirst();
      if (clash) continue;
      try {
        await db.insertInto('promotions').values({ account_id: p.accountId, kind: 'share_code', key: '', value: code, created_at: Date.now() }).execute();
      } catch (e) {
        if (!isUnique(e)) throw e;
      }
    }
    const row = await db.selectFrom('promotions').select('value').where('account_id', '=', p.accountId).where('kind', '=', 'share_code').executeTakeFirst();
    if (!row) throw new Error('could not create a share code');
    return { code: row.value };
  }

  /** GET /api/promotion/share/bind: records who shared with this account, once per promotion type. */
  async shareBind(p: Principal, type: unknown, codeRaw: unknown): Promise<{ bound: true; type: string; referrer_id: number }> {
    if (typeof type !== 'string' || !(SHARE_TYPES as readonly string[]).includes(type)) throw paramError(PROMOTION_TEXT.unknownType);
    const code = typeof codeRaw === 'string' ? codeRaw.trim().toUpperCase() : '';
    if (!SHARE_CODE.test(code)) throw paramError(PROMOTION_TEXT.badCode);
    const db = this.deps.db;
    const owner = await db.selectFrom('promotions').select('account_id').where('kind', '=', 'share_code').where('value', '=', code).executeTakeFirst();
    if (!owner) throw paramError(PROMOTION_TEXT.badCode);
    if (owner.account_id === p.accountId) throw paramError(PROMOTION_TEXT.ownCode);
    const kind = `share_bind:${type}`;
    const previous = await db.selectFrom('promotions').select('value').where('account_id', '=', p.accountId).where('kind', '=', kind).executeTakeFirst();
    if (previous && previous.value !== code) throw paramError(PROMOTION_TEXT.alreadyBound);
    if (!previous) {
      try {
        await db.insertInto('promotions').values({ account_id: p.accountId, kind, key: '', value: code, created_at: Date.now() }).execute();
      } catch (e) {
        if (!isUnique(e)) throw e;
        return this.shareBind(p, type, code);
      }
    }
    return { bound: true, type, referrer_id: owner.account_id };
  }

  /** GET /api/promotion/giveaway/checkin: one check-in per UTC day. */
  async checkin(p: Principal, now = Date.now()): Promise<{ day: string; new_checkin: boolean; days: number }> {
    const day = utcDay(now);
    const db = this.deps.db;
    const r = await db
      .insertInto('promotions')
      .values({ account_id: p.accountId, kind: 'checkin', key: day, value: '', created_at: now })
      .onConflict((oc) => oc.columns(['account_id', 'kind', 'key']).doNothing())
      .executeTakeFirst();
    const { n } = await db
      .selectFrom('promotions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', p.accountId)
      .where('kind', '=', 'checkin')
      .executeTakeFirstOrThrow();
    return { day, new_checkin: Number(r.numInsertedOrUpdatedRows ?? 0n) > 0, days: Number(n) };
  }
}

