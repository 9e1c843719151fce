import { describe, expect, it } from 'vitest';
import { CODE } from '../../src/shared/domain/codes.js';
import { creditCost } from '../../src/shared/domain/credits.js';
import { PLAN_LIMITS } from '../../src/shared/domain/plans.js';
import { guest, ledger, kitForEachTest, type ProcessingKit } from '../../tests/support/jobs.js';
import { detectScaleout } from '../../tests/support/modes.js';

const PLAN = creditCost({ job: 'enlarge' });
const COMPRESS = creditCost({ job: 'compress' });

const pg = await detectScaleout();
// PostgreSQL runs the same cases when it answers: its row locks are what keep concurrent charges honest there.
const MODES = [{ mode: 'sqlite' }, ...(pg.available ? [{ mode: 'postgres' }] : [])];

describe.each(MODES)('CreditService ($mode)', ({ mode }) => {
  let kit!: ProcessingKit;
  kitForEachTest(mode, pg.pgUrl, (k) => (kit = k));

  const account = (id: number) =>
    kit.deps.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('charges a trans_id once, however often it is asked', async () => {
    const p = await guest(kit);
    const left = PLAN_LIMITS.guest.credits - 1;
    expect(await kit.credits.charge(p.accountId, 't-1', PLAN)).toEqual({ charged: 1, left });
    expect(await kit.credits.charge(p.accountId, 't-1', PLAN)).toEqual({ charged: 0, left });
    expect((await account(p.accountId)).used_num).toBe(1);
    expect(await ledger(kit, 't-1')).toEqual([{ kind: 'charge', amount: 1 }]);
  });

  it('refuses with 10012 when no credit is left and leaves no ledger row', async () => {
    const p = await guest(kit);
    for (let i = 0; i < PLAN_LIMITS.guest.credits; i++) await kit.credits.charge(p.accountId, `t-${i}`, PLAN);
    await expect(kit.credits.charge(p.accountId, 't-x', PLAN)).rejects.toMatchObject({
      code: CODE.INSUFFICIENT_CREDITS,
      message: 'Insufficient Credits',
    });
    expect(await ledger(kit, 't-x')).toEqual([]);
    expect((await account(p.accountId)).used_num).toBe(PLAN_LIMITS.guest.credits);
  });

  it('takes a price above one credit whole or not at all', async () => {
    const p = await guest(kit);
    const dear = { pool: 'plan', amount: PLAN_LIMITS.guest.credits + 1 } as const;
    await expect(kit.credits.charge(p.accountId, 'd-1', dear)).rejects.toMatchObject({
      code: CODE.INSUFFICIENT_CREDITS,
    });
    expect((await account(p.accountId)).used_num).toBe(0);
    const fits = { pool: 'plan', amount: PLAN_LIMITS.guest.credits } as const;
    expect(await kit.credits.charge(p.accountId, 'd-2', fits)).toEqual({ charged: fits.amount, left: 0 });
    expect(await ledger(kit, 'd-2')).toEqual([{ kind: 'charge', amount: fits.amount }]);
    expect(await kit.credits.refund('d-2')).toBe(true);
    expect((await account(p.accountId)).used_num).toBe(0);
  });

  it('never lets concurrent starts take more than the balance', async () => {
    const p = await guest(kit);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => kit.credits.charge(p.accountId, `c-${i}`, PLAN)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(PLAN_LIMITS.guest.credits);
    expect((await account(p.accountId)).used_num).toBe(PLAN_LIMITS.guest.credits);
  });

  it('draws compress works on the compress credits only', async () => {
    const p = await guest(kit);
    expect(await kit.credits.charge(p.accountId, 'z-1', COMPRESS)).toEqual({
      charged: 1,
      left: PLAN_LIMITS.guest.compressCredits - 1,
    });
    const a = await account(p.accountId);
    expect([a.used_num, a.compress_used]).toEqual([0, 1]);
    expect(await ledger(kit, 'z-1')).toEqual([{ kind: 'compress_charge', amount: 1 }]);
    expect(await kit.credits.refund('z-1')).toBe(true);
    expect((await account(p.accountId)).compress_used).toBe(0);
    expect(await ledger(kit, 'z-1')).toEqual([
      { kind: 'compress_charge', amount: 1 },
      { kind: 'compress_refund', amount: 1 },
    ]);
  });

  it('refunds once and only what was charged', async () => {
    const p = await guest(kit);
    await kit.credits.charge(p.accountId, 'r-1', PLAN);
    expect(await kit.credits.refund('r-1')).toBe(true);
    expect(await kit.credits.refund('r-1')).toBe(false);
    expect(await kit.credits.refund('never-charged')).toBe(false);
    expect((await account(p.accountId)).used_num).toBe(0);
    expect((await ledger(kit, 'r-1')).map((r) => r.kind)).toEqual(['charge', 'refund']);
  });

  it('grants credits once per reference', async () => {
    const p = await guest(kit);
    expect(await kit.credits.grant(p.accountId, 10, 'topup-1')).toBe(true);
    expect(await kit.credits.grant(p.accountId, 10, 'topup-1')).toBe(false);
    const b = await kit.credits.balance(p.accountId);
    expect(b.max_num).toBe(PLAN_LIMITS.guest.credits + 10);
    expect(b.left).toBe(PLAN_LIMITS.guest.credits + 10);
  });
});
