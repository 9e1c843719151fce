/**
 * Which payment provider a server uses: none by default (no free Pro: checkout refused, the local
 * provider unreachable), and Stripe through its SDK — Checkout Session creation replayed from a
 * recorded fixture by a local HTTP server (no network), webhooks signed with the SDK's own helper.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE } from '../../src/shared/domain/codes.js';
import { loadConfig } from '../../server/config.js';
import type { TestServer } from '../support/server.js';
import { Caller, fixture, startApiServer } from './api-helpers.js';

const post = (srv: TestServer, path: string, body: string, headers: Record<string, string>) =>
  fetch(srv.url + path, { method: 'POST', body, headers }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { code: number; msg: string; data: any },
  }));

describe('configuration', () => {
  it('PAYMENT_PROVIDER defaults to none; local and stripe are chosen explicitly; anything else is a startup error', () => {
    expect(loadConfig({}).paymentProvider).toBe('none');
    expect(loadConfig({ PAYMENT_PROVIDER: 'local' }).paymentProvider).toBe('local');
    expect(
      loadConfig({ PAYMENT_PROVIDER: 'stripe', STRIPE_PRICE_606838_EUR: 'price_1', PUBLIC_URL: 'https://x.example/' }),
    ).toMatchObject({
      paymentProvider: 'stripe',
      stripePrices: { '606838:EUR': 'price_1' },
      publicUrl: 'https://x.example',
    });
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'free' })).toThrow(/PAYMENT_PROVIDER/);
  });
});

describe('no payment provider (the default)', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startApiServer({ paymentProvider: 'none' });
  });
  afterAll(() => srv?.stop());

  it('register → checkout → local pay grants nothing: checkout is refused, the local provider does not exist', async () => {
    const u = await Caller.user(srv, 'no-free-pro@example.com');
    expect((await u.get('/api/payments/config', {}, false)).body.data).toEqual({ purchasing: false, provider: 'none' });
    const c = await u.form('/api/payments/checkout', { product_id: '606838' });
    expect(c.body).toMatchObject({
      code: CODE.PARAM_ERROR,
      msg: 'Purchasing is not configured on this server.',
      data: { reason: 'purchasingDisabled', error: 'purchasing_disabled' },
    });
    expect(await srv.ctx.db.selectFrom('payment_checkouts').select('id').execute()).toHaveLength(0);
    expect((await u.form('/api/payments/local/pay', { id: 'anything' })).status).toBe(404);
    const body = JSON.stringify({
      id: 'evt_x',
      type: 'checkout.completed',
      account_id: u.accountId,
      created: Date.now(),
    });
    const w = await post(srv, '/api/payments/webhook/local', body, {
      'content-type': 'application/json',
      'pixmill-signature': `t=${Math.floor(Date.now() / 1000)},v1=00`,
    });
    expect(w.status).toBe(404);
    expect((await u.form('/api/v2/license', { guest_token_v2: u.token }, false)).body.data).toMatchObject({
      user_level: 'register',
      max_num: 3,
    });
    expect(await srv.ctx.db.selectFrom('payment_events').select('id').execute()).toHaveLength(0);
  });
});

interface Recorded {
  request: { method: string; path: string; form: Record<string, string> };
  response: { status: number; headers: Record<string, string>; body: unknown };
}

describe('Stripe', () => {
  const SECRET_KEY = 'sk_test_pixmillFixtureKey';
  const WEBHOOK_SECRET = 'whsec_pixmillFixtureSecret';
  const PUBLIC_URL = 'https://pixmill.example';
  const recorded = JSON.parse(fixture('stripe/checkout-session-create.json').toString('utf8')) as Recorded;
  const fill = (text: string, checkoutId: string) =>
    text.replaceAll('{{CHECKOUT_ID}}', checkoutId).replaceAll('{{PUBLIC_URL}}', PUBLIC_URL);
  const seen: { method: string; path: string; auth: string; idempotency: string; form: URLSearchParams }[] = [];
  let replay: http.Server;
  let srv: TestServer;
  const stripe = new Stripe(SECRET_KEY);

  beforeAll(async () => {
    // Stands in for api.stripe.com: checks the request against the recording and answers the recorded body.
    replay = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (d: Buffer) => (raw += d.toString('utf8')));
      req.on('end', () => {
        const form = new URLSearchParams(raw);
        seen.push({
          method: req.method!,
          path: req.url!,
          auth: String(req.headers.authorization),
          idempotency: String(req.headers['idempotency-key']),
          form,
        });
        const checkoutId = form.get('client_reference_id') ?? '';
        if (form.get('customer_email')?.startsWith('declined')) {
          // Stripe's error shape for a refused request (no retry: a 4xx).
          res.writeHead(400, { 'content-type': 'application/json', 'request-id': 'req_declined' });
          return void res.end(
            JSON.stringify({
              error: {
                type: 'invalid_request_error',
                code: 'parameter_invalid_empty',
                message: 'Refused by the test',
                param: 'line_items',
              },
            }),
          );
        }
        res.writeHead(recorded.response.status, recorded.response.headers);
        res.end(fill(JSON.stringify(recorded.response.body), checkoutId));
      });
    });
    await new Promise<void>((r) => replay.listen(0, '127.0.0.1', r));
    const port = (replay.address() as AddressInfo).port;
    srv = await startApiServer({
      paymentProvider: 'stripe',
      stripeSecretKey: SECRET_KEY,
      stripeWebhookSecret: WEBHOOK_SECRET,
      stripeApiBase: `http://127.0.0.1:${port}`,
      publicUrl: PUBLIC_URL,
      stripePrices: {},
    });
  });
  afterAll(async () => {
    await srv?.stop();
    await new Promise((r) => replay?.close(r));
  });

  let checkoutId = '';
  let buyer: Caller & { accountId: number };

  it('checkout creates a Checkout Session (the recorded request) and answers its hosted url', async () => {
    buyer = await Caller.user(srv, 'stripe-buyer@example.com');
    const r = await buyer.form('/api/payments/checkout', { product_id: '606838', locale: 'de' });
    expect(r.body.code, r.body.msg).toBe(200);
    checkoutId = r.body.data.checkout_id;
    expect(r.body.data).toMatchObject({
      provider: 'stripe',
      level: 'pro',
      amount: 19.9,
      currency: 'EUR',
      status: 'open',
      url: (recorded.response.body as { url: string }).url,
    });
    expect(seen).toHaveLength(1);
    const call = seen[0]!;
    expect(call).toMatchObject({
      method: recorded.request.method,
      path: recorded.request.path,
      auth: `Bearer ${SECRET_KEY}`,
      idempotency: `pixmill-checkout-${checkoutId}`,
    });
    for (const [k, v] of Object.entries(recorded.request.form)) expect(call.form.get(k), k).toBe(fill(v, checkoutId));
    const row = await srv.ctx.db
      .selectFrom('payment_checkouts')
      .selectAll()
      .where('id', '=', checkoutId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      provider: 'stripe',
      provider_ref: 'cs_test_a1PixmillFixtureSession0001',
      status: 'open',
    });
    // GET answers the stored address without asking Stripe again.
    expect((await buyer.get('/api/payments/checkout', { id: checkoutId })).body.data.url).toBe(row.url);
    expect(seen).toHaveLength(1);
    expect((await buyer.get('/api/payments/config', {}, false)).body.data).toEqual({
      purchasing: true,
      provider: 'stripe',
    });
    // The built-in free provider is not reachable when Stripe is configured.
    expect((await buyer.form('/api/payments/local/pay', { id: checkoutId })).status).toBe(404);
  });

  it('a checkout Stripe refuses answers a clear error and leaves no open checkout', async () => {
    const d = await Caller.user(srv, 'declined@example.com');
    const r = await d.form('/api/payments/checkout', { product_id: '606836' });
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({
      code: CODE.PARAM_ERROR,
      msg: 'The payment provider could not open a checkout. Please try again later.',
      data: { reason: 'providerFailed', error: 'provider_failed' },
    });
    const rows = await srv.ctx.db
      .selectFrom('payment_checkouts')
      .select('status')
      .where('account_id', '=', d.accountId)
      .execute();
    expect(rows).toEqual([{ status: 'cancelled' }]);
  });

  const completed = () => fill(fixture('stripe/event-checkout-session-completed.json').toString('utf8'), checkoutId);
  const deliver = (payload: string, header: string) =>
    post(srv, '/api/payments/webhook/stripe', payload, {
      'content-type': 'application/json',
      'stripe-signature': header,
    });
  const sign = (payload: string, opts: { secret?: string; timestamp?: number } = {}) =>
    stripe.webhooks.generateTestHeaderString({
      payload,
      secret: opts.secret ?? WEBHOOK_SECRET,
      timestamp: opts.timestamp ?? Math.floor(Date.now() / 1000),
    });

  it('refuses a wrong secret, a tampered body, an old or future timestamp or no signature (HTTP 400, code 5), granting nothing', async () => {
    const payload = completed();
    for (const [body, header] of [
      // the SDK checks a signature's age only; one dated ten years ahead passed
      [payload, sign(payload, { timestamp: Math.floor(Date.now() / 1000) + 10 * 365 * 86_400 })],
      [payload, sign(payload, { timestamp: Math.floor(Date.now() / 1000) + 3600 })],
      [payload, sign(payload, { secret: 'whsec_other' })],
      [payload.replace('"paid"', '"paid" '), sign(payload)],
      [payload, sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 })],
      [payload, ''],
    ] as const) {
      const r = await deliver(body, header);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(CODE.VALIDATION_INVALID);
    }
    expect(await srv.ctx.db.selectFrom('payment_events').select('id').execute()).toHaveLength(0);
    expect((await buyer.form('/api/v2/license', { guest_token_v2: buyer.token }, false)).body.data.user_level).toBe(
      'register',
    );
  });

  it('checkout.session.completed grants Pro once; a replayed or re-signed duplicate changes nothing', async () => {
    const payload = completed();
    const first = await deliver(payload, sign(payload));
    expect(first.body).toMatchObject({
      code: 200,
      data: { event_id: 'evt_1PixmillFixtureCompleted01', type: 'checkout.completed', applied: true, duplicate: false },
    });
    const again = await Promise.all([deliver(payload, sign(payload)), deliver(payload, sign(payload))]);
    for (const r of again) expect(r.body.data).toMatchObject({ applied: false, duplicate: true });
    const lic = (await buyer.form('/api/v2/license', { guest_token_v2: buyer.token }, false)).body.data;
    expect(lic).toMatchObject({ user_level: 'pro', left_credits: 500 });
    const grants = await srv.ctx.db
      .selectFrom('credit_ledger')
      .select('amount')
      .where('account_id', '=', buyer.accountId)
      .where('kind', '=', 'grant')
      .execute();
    expect(grants).toEqual([{ amount: 500 }]);
    expect((await buyer.get('/api/payments/checkout', { id: checkoutId })).body.data.status).toBe('paid');
  });

  it('events Pixmill does not use, and unpaid completions, are acknowledged without effect', async () => {
    const other = JSON.stringify({
      id: 'evt_other',
      object: 'event',
      type: 'payment_intent.created',
      created: 1795000000,
      data: { object: { id: 'pi_1', object: 'payment_intent' } },
    });
    expect((await deliver(other, sign(other))).body).toMatchObject({
      code: 200,
      data: { type: 'payment_intent.created', applied: false, duplicate: false },
    });
    const unpaid = completed()
      .replace('"evt_1PixmillFixtureCompleted01"', '"evt_unpaid"')
      .replace('"payment_status": "paid"', '"payment_status": "unpaid"');
    expect((await deliver(unpaid, sign(unpaid))).body.data).toMatchObject({ applied: false });
    expect(await srv.ctx.db.selectFrom('payment_events').select('id').execute()).toHaveLength(1);
  });
});
