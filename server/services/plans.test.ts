import { describe, expect, it } from 'vitest';
import { CODE } from '../../src/domain/codes.js';
import { PLAN_LIMITS } from '../../src/domain/plans.js';
import { kitForEachTest, type ProcessingKit } from '../jobs/testing.js';
import { detectScaleout } from '../testing/modes.js';

const pg = await detectScaleout();
const MODES = [{ mode: 'sqlite' }, ...(pg.available ? [{ mode: 'postgres' }] : [])];

describe.each(MODES)('PlanService expiry ($mode)', ({ mode }) => {
  let kit!: ProcessingKit;
  kitForEachTest(mode, pg.pgUrl, (k) => (kit = k));

  const services = () => kit.deps.services;
  const ledgerOf = (accountId: number) =>
    kit.deps.db.selectFrom('credit_ledger').select(['kind', 'amount']).where('account_id', '=', accountId).orderBy('id').execute();
  async function proAccount(tag: string) {
    const a = await services().accounts.register({ email: `${tag}-${mode}-${Date.now()}@example.com`, password: 'abcd1234', confirm_password: 'abcd1234' });
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
    await kit.deps.db.updateTable('accounts').set({ plan_expires_at: Date.now() - 1000 }).where('id', '=', pro.id).execute();
    const due = await services().accounts.byId(pro.id);
    const [x, y] = await Promise.all([services().plans.settleExpiry(due), services().plans.settleExpiry(due)]);
    for (const a of [x, y]) expect([services().license.levelOf(a), a.max_num - a.used_num]).toEqual(['expired', PLAN_LIMITS.expired.credits]);
    expect((await ledgerOf(pro.id)).filter((r) => r.kind === 'grant').map((r) => r.amount)).toEqual([PLAN_LIMITS.pro.credits, PLAN_LIMITS.expired.credits]);
    for (let i = 0; i < PLAN_LIMITS.expired.credits; i++) expect(await services().credits.charge(pro.id, `e-${mode}-${i}`, { compress: false })).toBe(true);
    await expect(services().credits.charge(pro.id, `e-${mode}-x`, { compress: false })).rejects.toMatchObject({ code: CODE.INSUFFICIENT_CREDITS });
  });
});
