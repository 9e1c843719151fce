import { describe, expect, it } from 'vitest';
import { API_PLANS } from '../../src/shared/domain/apiPlans.js';
import { CODE } from '../../src/shared/domain/codes.js';
import { creditCost } from '../../src/shared/domain/credits.js';
import { PLAN_LIMITS } from '../../src/shared/domain/plans.js';
import { kitForEachTest, type ProcessingKit } from '../../tests/support/jobs.js';
import { detectScaleout } from '../../tests/support/modes.js';
import { packCreditsOwned } from './plans.js';

const pg = await detectScaleout();
const MODES = [{ mode: 'sqlite' }, ...(pg.available ? [{ mode: 'postgres' }] : [])];

describe.each(MODES)('PlanService expiry ($mode)', ({ mode }) => {
  let kit!: ProcessingKit;
  kitForEachTest(mode, pg.pgUrl, (k) => (kit = k));

  const services = () => kit.deps.services;
  const ledgerOf = (accountId: number) =>
    kit.deps.db
      .selectFrom('credit_ledger')
      .select(['kind', 'amount'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
  async function proAccount(tag: string) {
    const a = await services().accounts.register({
      email: `${tag}-${mode}-${Date.now()}@example.com`,
      password: 'abcd1234',
      confirm_password: 'abcd1234',
    });
    return services().plans.setPlan(a.id, 'pro', Date.now() + 86_400_000);
  }

  it('an expired plan leaves the guest-like allowance (3 credits), not 0, recorded in the ledger', async () => {
    const pro = await proAccount('exp');
    await kit.deps.db.updateTable('accounts').set({ used_num: 120 }).where('id', '=', pro.id).execute();
    const a = await services().plans.expirePlan(pro.id);
    expect(services().license.levelOf(a)).toBe('expired');
    expect(a.max_num - a.used_num).toBe(PLAN_LIMITS.expired.credits);
    expect(a.used_num).toBe(120);
    expect(a.compress_max - a.compress_used).toBe(PLAN_LIMITS.expired.compressCredits);
    const rows = await ledgerOf(pro.id);
    expect(rows.slice(-2)).toEqual([
      { kind: 'expire', amount: PLAN_LIMITS.pro.credits - 120 },
      { kind: 'grant', amount: PLAN_LIMITS.expired.credits },
    ]);
    // Expiring again changes nothing: the allowance is granted once per expiry.
    const again = await services().plans.expirePlan(pro.id);
    expect(again.max_num).toBe(a.max_num);
    expect(await ledgerOf(pro.id)).toHaveLength(rows.length);
  });

  it('a plan past its end date settles once under concurrent reads, then the allowance is spent like a guest’s', async () => {
    const pro = await proAccount('late');
    await kit.deps.db
      .updateTable('accounts')
      .set({ plan_expires_at: Date.now() - 1000 })
      .where('id', '=', pro.id)
      .execute();
    const due = await services().accounts.byId(pro.id);
    const [x, y] = await Promise.all([services().plans.settleExpiry(due), services().plans.settleExpiry(due)]);
    for (const a of [x, y])
      expect([services().license.levelOf(a), a.max_num - a.used_num]).toEqual(['expired', PLAN_LIMITS.expired.credits]);
    expect((await ledgerOf(pro.id)).filter((r) => r.kind === 'grant').map((r) => r.amount)).toEqual([
      PLAN_LIMITS.pro.credits,
      PLAN_LIMITS.expired.credits,
    ]);
    for (let i = 0; i < PLAN_LIMITS.expired.credits; i++)
      expect(await services().credits.charge(pro.id, `e-${mode}-${i}`, creditCost({ job: 'enlarge' }))).toMatchObject({
        charged: 1,
      });
    await expect(
      services().credits.charge(pro.id, `e-${mode}-x`, creditCost({ job: 'enlarge' })),
    ).rejects.toMatchObject({
      code: CODE.INSUFFICIENT_CREDITS,
    });
  });
});

describe.each(MODES)('PlanService and API pack credits ($mode)', ({ mode }) => {
  let kit!: ProcessingKit;
  kitForEachTest(mode, pg.pgUrl, (k) => (kit = k));

  const services = () => kit.deps.services;
  const PACK = API_PLANS[0]!;
  const { basic, pro, expired } = PLAN_LIMITS;
  let n = 0;
  const account = (id: number) =>
    kit.deps.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const left = async (id: number) => {
    const a = await account(id);
    return a.max_num - a.used_num;
  };
  async function registered(tag: string) {
    return services().accounts.register({
      email: `pack-${tag}-${mode}-${Date.now()}@example.com`,
      password: 'abcd1234',
      confirm_password: 'abcd1234',
    });
  }
  const buyPack = async (id: number) =>
    expect(await services().apiTokens.grantPack(id, PACK, `test:${id}:${++n}`)).toBe(true);
  async function spend(id: number, count: number) {
    for (let i = 0; i < count; i++)
      expect(await services().credits.charge(id, `spend-${id}-${++n}`, creditCost({ job: 'enlarge' }))).toMatchObject({
        charged: 1,
      });
  }
  /** The ledger tells the balance: the register allotment, plus grants and refunds, less expiries and charges. */
  async function expectLedgerMatches(id: number) {
    const rows = await kit.deps.db
      .selectFrom('credit_ledger')
      .select(['kind', 'amount'])
      .where('account_id', '=', id)
      .execute();
    const sign: Record<string, number> = { grant: 1, refund: 1, expire: -1, charge: -1 };
    const told = rows.reduce((sum, r) => sum + (sign[r.kind] ?? 0) * r.amount, PLAN_LIMITS.register.credits);
    expect(told).toBe(await left(id));
    expect(rows.every((r) => r.amount >= 0)).toBe(true);
  }
  const expiries = async (id: number) =>
    (
      await kit.deps.db
        .selectFrom('credit_ledger')
        .select('amount')
        .where('account_id', '=', id)
        .where('kind', '=', 'expire')
        .orderBy('id')
        .execute()
    ).map((r) => r.amount);

  it('a pack bought on the free plan is kept when the account goes Pro: Pro’s allotment plus the pack', async () => {
    const a = await registered('free');
    await spend(a.id, 1);
    await buyPack(a.id);
    await expectLedgerMatches(a.id);
    const p = await services().plans.setPlan(a.id, 'pro', Date.now() + 86_400_000);
    expect(p.max_num - p.used_num).toBe(pro.credits + PACK.credits);
    expect([p.pack_credits, packCreditsOwned(p)]).toEqual([PACK.credits, PACK.credits]);
    // what was left of the free plan (3 − 1) expires; the pack does not
    expect(await expiries(a.id)).toEqual([PLAN_LIMITS.register.credits - 1]);
    await expectLedgerMatches(a.id);
  });

  it('a plan ending keeps the pack credits still owned: plan credits were spent first, pack credits last', async () => {
    const a = await registered('end');
    await services().plans.setPlan(a.id, 'pro', Date.now() + 86_400_000);
    await buyPack(a.id);
    await spend(a.id, 100);
    await expectLedgerMatches(a.id);
    let e = await services().plans.expirePlan(a.id);
    expect(services().license.levelOf(e)).toBe('expired');
    expect(e.max_num - e.used_num).toBe(expired.credits + PACK.credits);
    expect(e.pack_credits).toBe(PACK.credits);
    expect((await expiries(a.id)).at(-1)).toBe(pro.credits - 100);
    await expectLedgerMatches(a.id);

    // Basic now (the allowance left expires, the pack stays), then more spent than the plan's part:
    // the rest came out of the pack, and only what is left of it is carried.
    const again = await services().plans.grantPlan(a.id, 'basic');
    expect(again.max_num - again.used_num).toBe(basic.credits + PACK.credits);
    expect((await expiries(a.id)).at(-1)).toBe(expired.credits);
    await spend(a.id, basic.credits + 120);
    expect(packCreditsOwned(await account(a.id))).toBe(PACK.credits - 120);
    e = await services().plans.expirePlan(a.id);
    expect(e.max_num - e.used_num).toBe(expired.credits + PACK.credits - 120);
    expect([e.pack_credits, packCreditsOwned(e)]).toEqual([PACK.credits - 120, PACK.credits - 120]);
    expect((await expiries(a.id)).at(-1)).toBe(0);
    await expectLedgerMatches(a.id);

    // The allowance goes first too: spending it leaves the pack's credits whole.
    await spend(a.id, expired.credits);
    expect(packCreditsOwned(await account(a.id))).toBe(PACK.credits - 120);
  });

  it('renewing a live plan keeps the pack credits; only the period’s unused plan credits expire', async () => {
    const a = await registered('renew');
    const end = Date.now() + 86_400_000;
    await services().plans.setPlan(a.id, 'pro', end);
    await buyPack(a.id);
    await spend(a.id, 50);
    const r = await services().plans.grantPlan(a.id, 'pro');
    expect(r.plan_expires_at).toBeGreaterThan(end);
    expect(r.max_num - r.used_num).toBe(pro.credits + PACK.credits);
    expect(r.pack_credits).toBe(PACK.credits);
    expect((await expiries(a.id)).at(-1)).toBe(pro.credits - 50);
    await expectLedgerMatches(a.id);
    const renewed = await services().plans.renewPlan(a.id);
    expect(renewed.max_num - renewed.used_num).toBe(pro.credits + PACK.credits);
    await expectLedgerMatches(a.id);
  });
});
