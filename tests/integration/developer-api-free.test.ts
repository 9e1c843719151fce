/**
 * Issue 49 over real HTTP, in both run modes: a free key for every account with free previews (the cold
 * path in three calls), photos of any size (size=auto scales down, size=full refuses and says what to do),
 * and the output options of background removal (format, bg_color, crop, its other names).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREVIEW_MEGAPIXELS } from '../../src/shared/domain/apiPlans.js';
import { CODE } from '../../src/shared/domain/codes.js';
import { limitsFor, megapixelsToPixels } from '../../src/shared/domain/plans.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { fixture } from './api-helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ apiFreePreviewsPerMonth: 2 });
}, 60_000);
afterAll(async () => {
  await srv?.stop();
});

let n = 0;
/** The quick start's first two calls: register, then the key. */
async function freeKey(s: TestServer = srv) {
  const reg = await fetch(`${s.url}/api/account/register`, {
    method: 'POST',
    body: new URLSearchParams({
      email: `free-${Date.now()}-${++n}@example.com`,
      password: 'passw0rdA1',
      confirm_password: 'passw0rdA1',
    }),
  });
  const account = ((await reg.json()) as { data: { user_token: string; id: number } }).data;
  const key = await fetch(`${s.url}/api/v2/api_token/get`, {
    method: 'POST',
    body: new URLSearchParams({ user_token: account.user_token }),
  });
  const body = (await key.json()) as { code: number; data: { api_token: string; entitlement: string } };
  return { key: body.data.api_token, entitlement: body.data.entitlement, code: body.code, accountId: account.id };
}

async function processCall(key: string, fields: Record<string, string>, file: Buffer, idempotencyKey?: string) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  fd.set('file', new Blob([file]), 'photo.jpg');
  const headers: Record<string, string> = { 'x-api-key': key };
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  return fetch(`${srv.url}/api/v1/process`, { method: 'POST', headers, body: fd });
}

const solid = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 90, g: 140, b: 60 } } })
    .jpeg()
    .toBuffer();

describe('a free key and free previews', () => {
  it('the cold path: register → key → first cut-out in three calls, free of credit', async () => {
    const { key, entitlement, code } = await freeKey();
    expect([code, entitlement]).toEqual([CODE.OK, 'free']);
    const r = await processCall(key, { feature: 'background_removal', size: 'preview' }, fixture('LadyBird.jpg'));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('x-credits-charged')).toBe('0');
    expect(r.headers.get('x-free-previews-left')).toBe('1');
    const img = await sharp(Buffer.from(await r.arrayBuffer())).metadata();
    expect(img.hasAlpha).toBe(true);
    expect(img.width! * img.height!).toBeLessThanOrEqual(megapixelsToPixels(API_PREVIEW_MEGAPIXELS));
    expect([Number(r.headers.get('x-width')), Number(r.headers.get('x-height'))]).toEqual([img.width, img.height]);
  });

  it('previews past the month’s free number take credits; out of credits the refusal says what to do', async () => {
    const { key, accountId } = await freeKey();
    const left = async () =>
      (await srv.ctx.services.credits.balance(accountId)).max_num -
      (await srv.ctx.services.credits.balance(accountId)).used_num;
    const start = await left();
    const photo = await solid(300, 200);
    for (const free of ['1', '0']) {
      const r = await processCall(key, { feature: 'sharpen', size: 'preview' }, photo);
      expect([r.status, r.headers.get('x-credits-charged'), r.headers.get('x-free-previews-left')]).toEqual([
        200,
        '0',
        free,
      ]);
    }
    expect(await left()).toBe(start);
    // the third preview of the month pays a credit, like full size
    const paid = await processCall(key, { feature: 'sharpen', size: 'preview' }, photo);
    expect([paid.status, paid.headers.get('x-credits-charged')]).toEqual([200, '1']);
    expect(await left()).toBe(start - 1);
    let last = paid;
    for (let i = 0; i < start && last.status === 200; i++) last = await processCall(key, { feature: 'sharpen' }, photo);
    expect(last.status).toBe(402);
    expect(((await last.json()) as { data: unknown }).data).toMatchObject({
      reason: 'insufficientCredits',
      pricing_url: expect.stringMatching(/\/pricing\/$/),
      api_plan: 'api_500',
    });
  });

  it('free previews racing for the last one: never more than the month’s number free', async () => {
    const { key, accountId } = await freeKey();
    // a Pro account runs several works at once (a free one runs one: batchSubscribersOnly)
    await srv.ctx.services.accounts.setPlan(accountId, 'pro');
    const photo = await solid(120, 80);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => processCall(key, { feature: 'sharpen', size: 'preview' }, photo)),
    );
    const refused = await Promise.all(answers.filter((r) => r.status !== 200).map((r) => r.text()));
    expect(refused).toEqual([]);
    const charged = answers.map((r) => r.headers.get('x-credits-charged')).sort();
    expect(charged).toEqual(['0', '0', '1', '1']);
  });
});

describe('any photo: size=auto scales down to the plan, size=full refuses', () => {
  it('a 4224×3168 photo from a free account', async () => {
    const { key } = await freeKey();
    const big = await solid(4224, 3168);
    const auto = await processCall(key, { feature: 'sharpen' }, big);
    expect(auto.status).toBe(200);
    expect(auto.headers.get('x-input-downscaled')).toBe('true');
    const w = Number(auto.headers.get('x-width'));
    const h = Number(auto.headers.get('x-height'));
    const free = limitsFor('register');
    expect(w * h).toBeLessThanOrEqual(megapixelsToPixels(free.maxMegapixels));
    expect(Math.max(w, h)).toBeLessThanOrEqual(free.maxSidePx);
    expect(Math.abs(w / h - 4224 / 3168)).toBeLessThan(0.01);
    const meta = await sharp(Buffer.from(await auto.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([w, h]);

    const full = await processCall(key, { feature: 'sharpen', size: 'full' }, big);
    expect(full.status).toBe(422);
    expect(((await full.json()) as { data: unknown }).data).toMatchObject({
      pricing_url: expect.stringMatching(/\/pricing\/$/),
      plan: 'pro',
    });
    // a photo within the plan is not touched
    const small = await processCall(key, { feature: 'sharpen' }, await solid(640, 480));
    expect([small.headers.get('x-input-downscaled'), small.headers.get('x-width')]).toEqual(['false', '640']);
  });
});

describe('output options of background removal', () => {
  it('png keeps alpha and crops to the subject; jpg is flattened on white; bg_color; webp keeps alpha', async () => {
    const { key } = await freeKey();
    const photo = fixture('LadyBird.jpg');
    // one cut-out work; the same Idempotency-Key answers it again in each output (no second work, no charge)
    const cutOut = (fields: Record<string, string>) =>
      processCall(key, { feature: 'remove_background', size: 'preview', ...fields }, photo, `cut-${key}`);
    const whole = await cutOut({});
    expect(whole.status).toBe(200);
    const wholeMeta = await sharp(Buffer.from(await whole.arrayBuffer())).metadata();
    const cropped = await cutOut({ crop: 'true', crop_margin: '2' });
    expect(cropped.headers.get('x-trans-id')).toBe(whole.headers.get('x-trans-id'));
    const cropBytes = Buffer.from(await cropped.arrayBuffer());
    const cropMeta = await sharp(cropBytes).metadata();
    expect(cropMeta.hasAlpha).toBe(true);
    expect(cropMeta.width! * cropMeta.height!).toBeLessThan(wholeMeta.width! * wholeMeta.height!);
    expect([Number(cropped.headers.get('x-width')), Number(cropped.headers.get('x-height'))]).toEqual([
      cropMeta.width,
      cropMeta.height,
    ]);
    // the subject reaches within the margin of each edge: an opaque pixel within 3 px of it
    const { data, info } = await sharp(cropBytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const opaqueWhere = (test: (x: number, y: number) => boolean) => {
      for (let y = 0; y < info.height; y++)
        for (let x = 0; x < info.width; x++) if (test(x, y) && data[(y * info.width + x) * 4 + 3]! > 0) return true;
      return false;
    };
    expect(opaqueWhere((x) => x <= 2)).toBe(true);
    expect(opaqueWhere((x) => x >= info.width - 3)).toBe(true);
    expect(opaqueWhere((_x, y) => y <= 2)).toBe(true);
    expect(opaqueWhere((_x, y) => y >= info.height - 3)).toBe(true);

    const jpg = await cutOut({ format: 'jpg' });
    expect(jpg.headers.get('content-type')).toBe('image/jpeg');
    expect(jpg.headers.get('content-disposition')).toMatch(/\.jpg/);
    const jpgPx = await sharp(Buffer.from(await jpg.arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    // the photo's corner is background: white after flattening
    expect([...jpgPx.data.subarray(0, 3)].every((v) => v > 240)).toBe(true);

    const red = await cutOut({ bg_color: 'ff0000' });
    const redPx = await sharp(Buffer.from(await red.arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(redPx.info.channels).toBe(3);
    expect([redPx.data[0]! > 240, redPx.data[1]! < 15, redPx.data[2]! < 15]).toEqual([true, true, true]);

    const webp = await cutOut({ format: 'webp' });
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await webp.arrayBuffer())).metadata()).hasAlpha).toBe(true);
    for (const r of [cropped, jpg, red, webp]) expect(r.headers.get('x-credits-charged')).toBe('0');
  });

  it('a bg_color that is no colour and a format that is none are refused naming the field', async () => {
    const { key } = await freeKey();
    const photo = await solid(60, 40);
    for (const [field, value] of [
      ['bg_color', 'url(x)'],
      ['format', 'gif'],
      ['size', 'huge'],
    ] as const) {
      const r = await processCall(key, { feature: 'matting', [field]: value }, photo);
      expect([r.status, ((await r.json()) as { data: { field: string } }).data.field]).toEqual([400, field]);
    }
  });
});
