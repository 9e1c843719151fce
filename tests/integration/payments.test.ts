/** Plans and payment over real HTTP: pricing, checkout, HMAC-verified webhooks applied once, renew/expire. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE } from '../../src/shared/domain/codes.js';
import { PLAN_PERIOD_DAYS } from '../../src/shared/domain/constants.js';
import { PLAN_LIMITS } from '../../src/shared/domain/plans.js';
import { sql } from 'kysely';
import { signPayload } from '../../server/services/paymentProviders.js';
import type { TestServer } from '../support/server.js';
import { Caller, fixture, startApiServer } from './api-helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startApiServer();
});
afterAll(() => srv?.stop());

let n = 0;
const email = (tag: string) => `pay-${tag}-${++n}@example.com`;
const DAY = 86_400_000;
const license = async (c: Caller) => (await c.form('/api/v2/license', { guest_token_v2: c.token }, false)).body.data;
const post = (path: string, body: Buffer, headers: Record<string, string>) =>
  fetch(srv.url + path, { method: 'POST', body, headers }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { code: number; msg: string; data: any },
  }));
const webhook = (body: Buffer, signature: string) =>
  post('/api/payments/webhook/local', body, { 'content-type': 'application/json', 'pixmill-signature': signature });
const secret = () => srv.ctx.services.payments.local.secret;
const event = (e: Record<string, unknown>) => Buffer.from(JSON.stringify({ created: Date.now(), ...e }));
const grants = async (accountId: number) =>
  (
    await srv.ctx.db
      .selectFrom('credit_ledger')
      .select('amount')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'grant')
      .execute()
  ).length;

async function openCheckout(c: Caller, product_id: string, extra: Record<string, string> = {}) {
  const r = await c.form('/api/payments/checkout', { product_id, ...extra });
  expect(r.body.code, r.body.msg).toBe(200);
  return r.body.data as {
    checkout_id: string;
    amount: number;
    currency: string;
    level: string;
    status: string;
    url: string;
  };
}

describe('pricing and checkout', () => {
  it('subscribe_info lists 606836 Basic 9.9 and 606838 Pro 19.9 in USD, EUR and JPY', async () => {
    const g = await Caller.guest(srv);
    const r = await g.get('/api/v2/subscribe_info');
    expect(r.body.data.products).toEqual([
      { id: 606836, level: 'basic', price: expect.objectContaining({ USD: 9.9, EUR: 9.9 }) },
      { id: 606838, level: 'pro', price: expect.objectContaining({ USD: 19.9, EUR: 19.9 }) },
    ]);
    expect(
      r.body.data.products.every((p: { price: { JPY: number } }) => Number.isInteger(p.price.JPY) && p.price.JPY > 0),
    ).toBe(true);
    expect(r.body.data).toMatchObject({ level: 'guest', subscribed: false });
  });

  it('currency: USD for en/ja, EUR for de/fr, JPY when chosen; unknown product or currency refused; guests must log in', async () => {
    const u = await Caller.user(srv, email('cur'));
    expect(await openCheckout(u, '606836')).toMatchObject({
      currency: 'USD',
      amount: 9.9,
      level: 'basic',
      status: 'open',
    });
    expect(await openCheckout(u, '606838', { locale: 'ja' })).toMatchObject({ currency: 'USD', amount: 19.9 });
    const de = await openCheckout(u, '606838', { locale: 'de' });
    expect(de).toMatchObject({ currency: 'EUR', amount: 19.9 });
    expect(de.url).toBe(`/de/checkout/?id=${de.checkout_id}`);
    expect(await openCheckout(u, '606836', { locale: 'fr' })).toMatchObject({ currency: 'EUR' });
    const jpy = await openCheckout(u, '606836', { currency: 'JPY' });
    expect(jpy.currency).toBe('JPY');
    expect((await u.form('/api/payments/checkout', { product_id: '1' })).body).toMatchObject({
      code: CODE.PARAM_ERROR,
      data: { field: 'product_id' },
    });
    expect((await u.form('/api/payments/checkout', { product_id: '606836', currency: 'GBP' })).body.code).toBe(
      CODE.PARAM_ERROR,
    );
    const g = await Caller.guest(srv);
    expect((await g.form('/api/payments/checkout', { product_id: '606836' })).status).toBe(401);
    // Another account's checkout answers like a missing one.
    const other = await Caller.user(srv, email('other'));
    expect((await other.get('/api/payments/checkout', { id: jpy.checkout_id })).status).toBe(404);
  });
});

describe('webhooks', () => {
  it('the local pay step grants the plan; a replayed event changes nothing', async () => {
    const addr = email('pro');
    const u = await Caller.user(srv, addr);
    expect((await u.get('/api/v2/is_subscribed', { email: addr })).body.data.subscribed).toBe(false);
    const co = await openCheckout(u, '606838');
    const paid = await u.form('/api/payments/local/pay', { id: co.checkout_id });
    expect(paid.body).toMatchObject({
      code: 200,
      data: { type: 'checkout.completed', applied: true, duplicate: false, checkout: { status: 'paid' } },
    });
    const lic = await license(u);
    expect(lic).toMatchObject({ user_level: 'pro', pid: 11043, left_credits: 500 });
    expect(lic.plan_expires_at).toBeGreaterThan(Date.now() + (PLAN_PERIOD_DAYS - 1) * DAY);
    expect((await u.get('/api/v2/is_subscribed', { email: addr })).body.data.subscribed).toBe(true);

    // The stored delivery, replayed with a valid fresh signature: recognised by its event id.
    const stored = await srv.ctx.db
      .selectFrom('payment_events')
      .selectAll()
      .where('checkout_id', '=', co.checkout_id)
      .executeTakeFirstOrThrow();
    const before = await srv.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', u.accountId)
      .executeTakeFirstOrThrow();
    const body = Buffer.from(stored.payload_json);
    const replay = await webhook(body, signPayload(secret(), body));
    expect(replay.body).toMatchObject({ code: 200, data: { applied: false, duplicate: true } });
    // Concurrent re-deliveries too.
    const again = await Promise.all([1, 2, 3].map(() => webhook(body, signPayload(secret(), body))));
    expect(again.every((r) => r.body.data.duplicate === true)).toBe(true);
    const after = await srv.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', u.accountId)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect(await grants(u.accountId)).toBe(1);
    // Paying a closed checkout again is refused.
    expect((await u.form('/api/payments/local/pay', { id: co.checkout_id })).body).toMatchObject({
      code: CODE.PARAM_ERROR,
      data: { reason: 'checkoutClosed' },
    });
  });

  it('concurrent first deliveries of one event apply it once; another event id for a paid checkout grants nothing', async () => {
    const u = await Caller.user(srv, email('race'));
    const co = await openCheckout(u, '606836');
    const body = event({ id: 'evt_race_1', type: 'checkout.completed', checkout_id: co.checkout_id });
    const rs = await Promise.all([1, 2, 3, 4].map(() => webhook(body, signPayload(secret(), body))));
    expect(rs.filter((r) => r.body.code === 200 && r.body.data.applied)).toHaveLength(1);
    const second = event({ id: 'evt_race_2', type: 'checkout.completed', checkout_id: co.checkout_id });
    expect((await webhook(second, signPayload(secret(), second))).body.data).toMatchObject({
      applied: false,
      duplicate: false,
    });
    expect(await grants(u.accountId)).toBe(1);
    expect(await license(u)).toMatchObject({ user_level: 'basic', left_credits: 200 });
  });

  it('refuses a missing, wrong, tampered or stale signature with code 5 and stores nothing', async () => {
    const u = await Caller.user(srv, email('sig'));
    const co = await openCheckout(u, '606838');
    const body = event({ id: 'evt_sig', type: 'checkout.completed', checkout_id: co.checkout_id });
    const tampered = Buffer.from(body.toString().replace('evt_sig', 'evt_sih'));
    for (const [b, sig] of [
      [body, ''],
      [body, 't=1,v1=00'],
      [body, signPayload(Buffer.from('not the secret'), body)],
      [tampered, signPayload(secret(), body)],
      [body, signPayload(secret(), body, Math.floor(Date.now() / 1000) - 3600)],
    ] as [Buffer, string][]) {
      const r = await webhook(b, sig);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: CODE.VALIDATION_INVALID, data: { reason: 'validationInvalid' } });
    }
    expect(
      await srv.ctx.db.selectFrom('payment_events').select('id').where('checkout_id', '=', co.checkout_id).execute(),
    ).toHaveLength(0);
    expect((await license(u)).user_level).toBe('register');
    expect((await post('/api/payments/webhook/nope', body, { 'content-type': 'application/json' })).status).toBe(404);
  });

  it('an upgrade keeps the paid credits still valid: Basic with 188 of 200 left -> Pro has 500 + 188', async () => {
    const u = await Caller.user(srv, email('upgrade'));
    const basic = await openCheckout(u, '606836');
    await u.form('/api/payments/local/pay', { id: basic.checkout_id });
    await srv.ctx.db.updateTable('accounts').set({ used_num: 12 }).where('id', '=', u.accountId).execute();
    expect(await license(u)).toMatchObject({ user_level: 'basic', left_credits: 188 });
    const pro = await openCheckout(u, '606838');
    await u.form('/api/payments/local/pay', { id: pro.checkout_id });
    const lic = await license(u);
    expect(lic).toMatchObject({ user_level: 'pro', pid: 11043, left_credits: 500 + 188 });
    expect(lic.plan_expires_at).toBeGreaterThan(Date.now() + (PLAN_PERIOD_DAYS - 1) * DAY);
    // Only the free account's 3 credits expired (at the first purchase); nothing at the upgrade.
    const rows = await srv.ctx.db
      .selectFrom('credit_ledger')
      .select(['kind', 'amount'])
      .where('account_id', '=', u.accountId)
      .where('kind', 'in', ['grant', 'expire'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { kind: 'expire', amount: PLAN_LIMITS.register.credits },
      { kind: 'grant', amount: PLAN_LIMITS.basic.credits },
      { kind: 'grant', amount: PLAN_LIMITS.pro.credits },
    ]);
    // Back to Basic while Pro is live keeps them as well; buying the live plan again renews it instead.
    await srv.ctx.db.updateTable('accounts').set({ used_num: 100 }).where('id', '=', u.accountId).execute();
    const back = await openCheckout(u, '606836');
    await u.form('/api/payments/local/pay', { id: back.checkout_id });
    expect(await license(u)).toMatchObject({ user_level: 'basic', left_credits: 200 + 600 });
  });

  it('renewal extends the plan with a fresh allotment; expiry ends it — credits 0, 10012 on start', async () => {
    const u = await Caller.user(srv, email('renew'));
    const co = await openCheckout(u, '606836');
    await u.form('/api/payments/local/pay', { id: co.checkout_id });
    await srv.ctx.db.updateTable('accounts').set({ used_num: 150 }).where('id', '=', u.accountId).execute();
    const first = (await license(u)).plan_expires_at as number;
    const renew = event({ id: 'evt_renew', type: 'subscription.renewed', account_id: u.accountId });
    expect((await webhook(renew, signPayload(secret(), renew))).body.data).toMatchObject({ applied: true });
    const renewed = await license(u);
    expect(renewed).toMatchObject({ user_level: 'basic', left_credits: 200 });
    expect(renewed.plan_expires_at).toBe(first + PLAN_PERIOD_DAYS * DAY);

    const uid = (await u.upload(fixture('rocket.jpg'), 'rocket.jpg', 'sharpen')).body.data.data.uid;
    const expire = event({ id: 'evt_expire', type: 'subscription.expired', account_id: u.accountId });
    expect((await webhook(expire, signPayload(secret(), expire))).body.data).toMatchObject({ applied: true });
    // Expired accounts keep the guest-like allowance (spec §6); once it is spent a start answers 10012.
    expect(await license(u)).toMatchObject({
      user_level: 'expired',
      is_expired: true,
      left_credits: PLAN_LIMITS.expired.credits,
    });
    await srv.ctx.db
      .updateTable('accounts')
      .set({ used_num: sql<number>`max_num` })
      .where('id', '=', u.accountId)
      .execute();
    const start = await u.form('/web_api/v1/transform', { uid, jconfig: JSON.stringify({ job: 'sharpen' }) });
    expect(start.body).toMatchObject({ code: CODE.INSUFFICIENT_CREDITS, data: { reason: 'insufficientCredits' } });
    expect((await u.get('/api/v2/subscribe_info')).body.data).toMatchObject({ level: 'expired', subscribed: false });

    // Buying again after expiry starts a new period from now.
    const co2 = await openCheckout(u, '606838');
    await u.form('/api/payments/local/pay', { id: co2.checkout_id });
    expect(await license(u)).toMatchObject({ user_level: 'pro', is_expired: false, left_credits: 500 });
  });
});
