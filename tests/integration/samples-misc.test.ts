import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCTS } from '../../src/shared/domain/constants.js';
import type { TestServer } from '../support/server.js';
import { Caller, startApiServer } from './api-helpers.js';

let srv: TestServer;
let samplesDir: string;
beforeAll(async () => {
  srv = await startApiServer();
  samplesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-samples-'));
});
afterAll(async () => {
  await srv?.stop();
  fs.rmSync(samplesDir, { recursive: true, force: true });
});

const png = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();

describe('samples', () => {
  it('the shipped manifest (if generated) has the documented shape and every file is served', async () => {
    const real = srv.ctx.services.samples.dir;
    const r = (await fetch(srv.url + '/api/v2/sample/info').then((x) => x.json())) as {
      code: number;
      data: Record<string, any[]>;
    };
    expect(r.code).toBe(200);
    if (!fs.existsSync(path.join(real, 'manifest.json'))) {
      expect(r.data).toEqual({});
      return;
    }
    for (const [type, list] of Object.entries(r.data)) {
      expect(Array.isArray(list)).toBe(true);
      list.forEach((e) => {
        expect(e).toEqual({
          name: expect.any(String),
          original: expect.stringMatching(/^\/samples\//),
          processed: expect.stringMatching(/^\/samples\//),
          w: expect.any(Number),
          h: expect.any(Number),
        });
      });
      const o = await fetch(`${srv.url}/api/v2/sample/download?job=${type}&type=original&num=0`);
      expect(o.status, `${type} original`).toBe(200);
      const rate = type === 'portrait' ? '1' : '2';
      const p = await fetch(`${srv.url}/api/v2/sample/download?job=${type}&type=processed&num=0&rate=${rate}`);
      expect(p.status, `${type} processed`).toBe(200);
    }
  });

  it('info, download with {scale} substitution, and the by-name link are confined to the samples directory', async () => {
    const svc = srv.ctx.services.samples;
    const real = svc.dir;
    try {
      svc.dir = samplesDir;
      expect(await fetch(srv.url + '/api/v2/sample/info').then((x) => x.json())).toEqual({
        code: 200,
        msg: 'ok',
        data: {},
      });
      fs.mkdirSync(path.join(samplesDir, 'enlarge'));
      fs.writeFileSync(path.join(samplesDir, 'enlarge', 'cat.png'), await png(40, 30));
      fs.writeFileSync(path.join(samplesDir, 'enlarge', 'cat-x2.png'), await png(80, 60));
      fs.writeFileSync(path.join(samplesDir, 'enlarge', 'cat-x4.png'), await png(160, 120));
      fs.writeFileSync(path.join(samplesDir, 'secret.txt'), 'no');
      const manifest = {
        enlarge: [
          {
            name: 'cat',
            original: '/samples/enlarge/cat.png',
            processed: '/samples/enlarge/cat-x{scale}.png',
            w: 40,
            h: 30,
          },
        ],
        broken: 'x',
      };
      fs.writeFileSync(path.join(samplesDir, 'manifest.json'), JSON.stringify(manifest));
      const info = (await fetch(srv.url + '/api/v2/sample/info').then((x) => x.json())) as { data: unknown };
      expect(info.data).toEqual({ enlarge: manifest.enlarge });

      const size = async (q: string) => {
        const r = await fetch(`${srv.url}/api/v2/sample/download?${q}`);
        if (!r.headers.get('content-type')?.startsWith('image/')) return { status: r.status, body: await r.json() };
        const m = await sharp(Buffer.from(await r.arrayBuffer())).metadata();
        return { status: 200, w: m.width, type: r.headers.get('content-type') };
      };
      expect(await size('job=enlarge&type=original&num=0')).toEqual({ status: 200, w: 40, type: 'image/png' });
      expect(await size('job=enlarge&type=processed&num=0&rate=4')).toMatchObject({ w: 160 });
      expect(await size('job=enlarge&type=processed&num=0')).toMatchObject({ w: 80 });
      expect(await size('job=enlarge&type=processed&num=0&rate=6')).toMatchObject({ status: 404 });
      expect(await size('job=enlarge&type=processed&num=0&rate=3')).toMatchObject({
        status: 200,
        body: { code: 10001 },
      });
      expect(await size('job=enlarge&type=thumb&num=0')).toMatchObject({ body: { code: 10001 } });
      expect(await size('job=enlarge&type=original&num=5')).toMatchObject({ status: 404 });
      expect(await size('job=nope&type=original&num=0')).toMatchObject({ status: 404 });

      const byName = (name: string) =>
        fetch(`${srv.url}/api/job_utils/download/sample?name=${encodeURIComponent(name)}`);
      expect((await byName('/samples/enlarge/cat.png')).status).toBe(200);
      expect((await byName('enlarge/cat.png')).status).toBe(200);
      for (const bad of [
        '../../package.json',
        '/samples/../../../etc/passwd',
        'secret.txt',
        '/etc/hostname',
        'enlarge/../../x.png',
      ])
        expect((await byName(bad)).status, bad).toBe(404);
      fs.symlinkSync(path.resolve('tests/fixtures/rocket.jpg'), path.join(samplesDir, 'link.jpg'));
      expect((await byName('link.jpg')).status).toBe(404);
    } finally {
      svc.dir = real;
    }
  });
});

describe('subscription', () => {
  it('subscribe_info gives products with prices and the caller level; is_subscribed for the signed-in caller only', async () => {
    const g = await Caller.guest(srv);
    const info = await g.get('/api/v2/subscribe_info');
    expect(info.body.data).toEqual({
      products: PRODUCTS.map((p) => ({ id: p.id, level: p.level, price: { ...p.price } })),
      level: 'guest',
      subscribed: false,
      expires_at: null,
    });
    const u = await Caller.user(srv, 'sub@example.com');
    const expires = Date.now() + 86400_000;
    await srv.ctx.services.accounts.setPlan(u.accountId, 'basic', expires);
    expect((await u.get('/api/v2/subscribe_info')).body.data).toMatchObject({
      level: 'basic',
      subscribed: true,
      expires_at: expires,
    });
    expect((await u.get('/api/v2/is_subscribed', { email: 'SUB@example.com' })).body.data).toEqual({
      subscribed: true,
    });
    expect((await u.get('/api/v2/is_subscribed')).body.data).toEqual({ subscribed: true });
    expect((await u.get('/api/v2/is_subscribed', { email: 'bad' })).body.code).toBe(10001);
    // nobody else learns whether an address pays: anonymous, a guest or another account → code 6
    expect((await new Caller(srv).get('/api/v2/is_subscribed', { email: 'sub@example.com' }, false)).body.code).toBe(6);
    expect((await g.get('/api/v2/is_subscribed', { email: 'sub@example.com' })).body.code).toBe(6);
    const other = await Caller.user(srv, 'sub-other@example.com');
    expect((await other.get('/api/v2/is_subscribed', { email: 'sub@example.com' })).body.code).toBe(6);
    // An expired plan is no subscription.
    await srv.ctx.db
      .updateTable('accounts')
      .set({ plan_expires_at: Date.now() - 1 })
      .where('id', '=', u.accountId)
      .execute();
    expect((await u.get('/api/v2/is_subscribed', { email: 'sub@example.com' })).body.data).toEqual({
      subscribed: false,
    });
  });

  it('cart/abandon records an event (anonymous too); unknown product refused', async () => {
    const g = await Caller.guest(srv);
    const r = await g.form('/api/cart/abandon', {
      product_id: '606838',
      currency: 'EUR',
      source: 'preview',
      medium: 'remove_watermark',
    });
    expect(r.body.code).toBe(200);
    const accountId = (await srv.ctx.services.tokens.resolve(g.token)).accountId;
    const [ev] = await srv.ctx.services.events.recent(accountId, 'cart-abandon');
    expect(ev!.payload).toEqual({ product_id: 606838, currency: 'EUR', source: 'preview', medium: 'remove_watermark' });
    expect((await new Caller(srv).form('/api/cart/abandon', { product_id: '606836' }, false)).body.code).toBe(200);
    expect((await g.form('/api/cart/abandon', { product_id: '1' })).body.code).toBe(10001);
  });
});

describe('misc', () => {
  it('profile/set: names and occupation required, other needs its text; guests refused', async () => {
    const u = await Caller.user(srv, 'profile@example.com');
    const bad = await u.form('/api/v2/profile/set', { first_name: '', last_name: 'Doe', occupation: 'other' });
    expect(bad.body).toMatchObject({ code: 1, data: { reason: 'fieldRequired' } });
    expect(bad.body.data.errors).toEqual({
      first_name: 'This field is required.',
      occupation_other: 'This field is required.',
    });
    expect((await u.form('/api/v2/profile/set', { first_name: 'Ann', last_name: 'Doe' })).body.data.errors).toEqual({
      occupation: 'This field is required.',
    });
    expect(
      (await u.form('/api/v2/profile/set', { first_name: 'Ann', last_name: 'Doe', occupation: 'astronaut' })).body.data
        .errors,
    ).toEqual({ occupation: 'Please choose an occupation.' });
    const ok = await u.form('/api/v2/profile/set', {
      first_name: 'Ann',
      last_name: 'Doe',
      occupation: 'other',
      occupation_other: 'Beekeeper',
    });
    expect(ok.body.data).toEqual({
      first_name: 'Ann',
      last_name: 'Doe',
      occupation: 'other',
      occupation_other: 'Beekeeper',
    });
    expect((await u.form('/api/v2/license', { guest_token_v2: u.token }, false)).body.data).toMatchObject({
      first_name: 'Ann',
      last_name: 'Doe',
      occupation: 'other',
    });
    const g = await Caller.guest(srv);
    expect(
      (await g.form('/api/v2/profile/set', { first_name: 'A', last_name: 'B', occupation: 'designer' })).body.code,
    ).toBe(6);
  });

  it('user_info/update: locale and currency for anyone, names for users only', async () => {
    const g = await Caller.guest(srv);
    expect((await g.form('/api/v2/user_info/update', { locale: 'ja', currency: 'JPY' })).body.data).toMatchObject({
      locale: 'ja',
      currency: 'JPY',
    });
    expect((await g.form('/api/v2/user_info/update', { locale: 'xx' })).body.code).toBe(10001);
    expect((await g.form('/api/v2/user_info/update', { first_name: 'G' })).body.code).toBe(6);
    expect((await g.form('/api/v2/user_info/update', {})).body.code).toBe(10001);
    const u = await Caller.user(srv, 'info@example.com');
    expect((await u.form('/api/v2/user_info/update', { first_name: 'Zed' })).body.data).toMatchObject({
      first_name: 'Zed',
    });
  });

  it('email_status for the owner or the signed link only, and unsubscribe by signed link or by the owner only', async () => {
    const u = await Caller.user(srv, 'mail@example.com');
    const g = await Caller.guest(srv);
    expect((await u.form('/api/v2/common/email_status', { email: 'mail@example.com' })).body.data).toEqual({
      email: 'mail@example.com',
      registered: true,
      mail_subscribed: true,
    });
    // anyone else gets one answer (code 5) whether the address has an account or not
    const stranger = (await g.form('/api/v2/common/email_status', { email: 'mail@example.com' })).body;
    expect(stranger.code).toBe(5);
    expect((await g.form('/api/v2/common/email_status', { email: 'ghost@example.com' })).body).toEqual(stranger);
    const ghostSig = srv.ctx.services.accounts.unsubscribeSignature('ghost@example.com');
    expect(
      (await g.form('/api/v2/common/email_status', { email: 'ghost@example.com', sig: ghostSig })).body,
    ).toMatchObject({ code: 1, data: { reason: 'emailUnknown' } });
    expect((await g.form('/api/mail/unsubscribe', { email: 'mail@example.com' })).body.code).toBe(5);
    expect((await g.form('/api/mail/unsubscribe', { email: 'mail@example.com', sig: 'x'.repeat(32) })).body.code).toBe(
      5,
    );
    const sig = srv.ctx.services.accounts.unsubscribeSignature('mail@example.com');
    expect((await g.form('/api/mail/unsubscribe', { email: 'Mail@example.com', sig })).body.data).toEqual({
      email: 'mail@example.com',
      unsubscribed: true,
    });
    expect(
      (await g.form('/api/v2/common/email_status', { email: 'mail@example.com', sig })).body.data.mail_subscribed,
    ).toBe(false);
    const u2 = await Caller.user(srv, 'mail2@example.com');
    expect((await u2.form('/api/mail/unsubscribe', { email: 'mail2@example.com' })).body.code).toBe(200);
    expect((await u.form('/api/mail/unsubscribe', { email: 'mail2@example.com' })).body.code).toBe(5);
    expect((await u.form('/api/mail/unsubscribe', { email: 'someone-else@example.com' })).body.code).toBe(5);
  });

  it('count_down starts once per account; share code and bind; daily check-in', async () => {
    const a = await Caller.user(srv, 'share-a@example.com');
    const b = await Caller.user(srv, 'share-b@example.com');
    const c1 = (await a.form('/api/v2/common/count_down')).body.data;
    expect(c1.end_at - c1.start_at).toBe(86400_000);
    const c2 = (await a.form('/api/v2/common/count_down')).body.data;
    expect(c2.start_at).toBe(c1.start_at);
    expect(c2.remaining_ms).toBeLessThanOrEqual(c1.remaining_ms);

    const code = (await a.get('/api/promotion/share/code')).body.data.code;
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect((await a.get('/api/promotion/share/code')).body.data.code).toBe(code);
    expect((await a.get('/api/promotion/share/bind', { type: 'anniversary_2021', code })).body).toMatchObject({
      code: 10001,
      data: { reason: 'shareCodeOwn' },
    });
    expect((await b.get('/api/promotion/share/bind', { type: 'christmas', code })).body).toMatchObject({
      code: 10001,
      msg: 'type must be one of anniversary_2021',
      data: { field: 'type' },
    });
    expect(
      (await b.get('/api/promotion/share/bind', { type: 'anniversary_2021', code: 'ZZZZZZZZ' })).body,
    ).toMatchObject({ code: 10001, data: { reason: 'shareCodeInvalid' } });
    expect(
      (await b.get('/api/promotion/share/bind', { type: 'anniversary_2021', code: code.toLowerCase() })).body.data,
    ).toEqual({ bound: true, type: 'anniversary_2021', code });
    // no internal account id of the referrer in the answer
    expect(
      JSON.stringify((await b.get('/api/promotion/share/bind', { type: 'anniversary_2021', code })).body.data),
    ).not.toMatch(/referrer|"id"/);
    expect((await b.get('/api/promotion/share/bind', { type: 'anniversary_2021', code })).body.code).toBe(200);
    const cCode = (await (await Caller.user(srv, 'share-c@example.com')).get('/api/promotion/share/code')).body.data
      .code;
    expect((await b.get('/api/promotion/share/bind', { type: 'anniversary_2021', code: cCode })).body).toMatchObject({
      code: 10001,
      data: { reason: 'shareCodeUsed' },
    });

    const k1 = (await a.get('/api/promotion/giveaway/checkin')).body.data;
    expect(k1).toEqual({ day: new Date().toISOString().slice(0, 10), new_checkin: true, days: 1 });
    expect((await a.get('/api/promotion/giveaway/checkin')).body.data).toMatchObject({ new_checkin: false, days: 1 });
  });

  it('report: the spec analytics events are stored; others refused', async () => {
    const g = await Caller.guest(srv);
    const accountId = (await srv.ctx.services.tokens.resolve(g.token)).accountId;
    for (const event of [
      'preview',
      'preview_drag',
      'download_all',
      'add_credits_popup',
      'add_image',
      'first_image_process',
    ]) {
      const r = await g.form('/api/report', { event, data: JSON.stringify({ uid: 'u1', n: 1 }) });
      expect(r.body.code, event).toBe(200);
      const [ev] = await srv.ctx.services.events.recent(accountId, event);
      expect(ev).toMatchObject({ id: r.body.data.event_id, payload: { uid: 'u1', n: 1 } });
    }
    const viaPayload = await g.json('/api/report', { event: 'preview', payload: { trans_id: 't9' } });
    expect((await srv.ctx.services.events.recent(accountId, 'preview'))[0]).toMatchObject({
      id: viaPayload.body.data.event_id,
      payload: { trans_id: 't9' },
    });
    expect((await g.form('/api/report', { event: 'hack' })).body.code).toBe(10001);
    expect((await g.form('/api/report', { event: 'preview', data: '[1]' })).body.code).toBe(10001);
    expect(
      (await g.form('/api/report', { event: 'preview', data: JSON.stringify({ x: 'y'.repeat(5000) }) })).body,
    ).toMatchObject({ code: 10001, data: { reason: 'reportDataInvalid' } });
    expect((await new Caller(srv).form('/api/report', { event: 'add_image' }, false)).body.code).toBe(200);
  });
});
