/**
 * The response headers the OpenAPI document declares reach the TypeScript client typed (issue 49 point 5:
 * "no response lists its headers, so no generated client knows them"): pixmill.gen.ts types each answer's
 * declared headers, and `answer.header(name)` / `PixmillError.header(name)` read them as those types
 * (numbers, booleans, text) from a real server, in both run modes. An undeclared name does not compile.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createClient, PixmillError, type Operations } from '../../clients/typescript/client.js';
import { API_TOKEN_RATE_LIMIT_PER_MINUTE } from '../../src/shared/domain/apiPlans.js';
import { freeApiKey } from './api-helpers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
}, 60_000);
afterAll(async () => {
  await srv?.stop();
});

const freeKey = () => freeApiKey(srv.url, 'headers');

describe('pixmill-client: the declared response headers, typed', () => {
  it('a free preview enlarge answers its credits, size, downscale and enlarge path as numbers, booleans and text', async () => {
    const api = createClient({ baseUrl: srv.url, apiKey: await freeKey() });
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6' } })
      .jpeg()
      .toBuffer();
    const out = await api.call('postProcess', {
      file: new Blob([photo]),
      feature: 'enlarge',
      scale: 2,
      size: 'preview',
    });
    if (out.kind !== 'file') throw new Error(`still running: ${out.status}`);

    expectTypeOf(out.header('X-Credits-Charged')).toEqualTypeOf<number | undefined>();
    expectTypeOf(out.header('X-Input-Downscaled')).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(out.header('X-Enlarge-Path')).toEqualTypeOf<string | undefined>();
    // @ts-expect-error -- a header the document does not declare for this answer
    out.header('X-Not-Declared');

    const size = await sharp(Buffer.from(out.bytes)).metadata();
    expect({
      charged: out.header('X-Credits-Charged'),
      previewsLeft: typeof out.header('X-Free-Previews-Left'),
      downscaled: out.header('X-Input-Downscaled'),
      width: out.header('X-Width'),
      height: out.header('X-Height'),
      enlargePath: out.header('X-Enlarge-Path'),
      transId: typeof out.header('X-Trans-Id'),
      limit: out.header('X-RateLimit-Limit'),
    }).toEqual({
      charged: 0,
      previewsLeft: 'number',
      downscaled: false,
      width: size.width,
      height: size.height,
      enlargePath: 'net',
      transId: 'string',
      limit: API_TOKEN_RATE_LIMIT_PER_MINUTE,
    });
    expect(out.header('X-Width')).toBe(128);

    // a JSON answer reads its declared headers too
    const point = await api.call('getPoint', {});
    expect(point.header('X-RateLimit-Remaining')).toBeLessThan(API_TOKEN_RATE_LIMIT_PER_MINUTE);
  });

  it('the 202 of a slow work types its Location; a refusal its rate-limit headers', async () => {
    expectTypeOf<Extract<Operations['postProcess']['answer'], { status: 202 }>['header']>()
      .parameter(0)
      .toEqualTypeOf<
        | 'X-RateLimit-Limit'
        | 'X-RateLimit-Remaining'
        | 'X-RateLimit-Reset'
        | 'X-Trans-Id'
        | 'X-Credits-Charged'
        | 'X-Credits-Left'
        | 'X-Input-Downscaled'
        | 'X-Free-Previews-Left'
        | 'Location'
      >();

    const api = createClient({ baseUrl: srv.url, apiKey: await freeKey() });
    const refusal = await api
      .call('postProcess', { file: new Blob([Buffer.from('not an image')]), feature: 'enlarge' })
      .catch((e: unknown) => e);
    if (!(refusal instanceof PixmillError)) throw new Error('not refused');
    expectTypeOf(refusal.header('Retry-After')).toEqualTypeOf<number | undefined>();
    expect([refusal.status, refusal.reason, refusal.header('X-RateLimit-Limit')]).toEqual([
      400,
      'unsupportedImage',
      API_TOKEN_RATE_LIMIT_PER_MINUTE,
    ]);
    expect(refusal.header('Retry-After')).toBeUndefined();
  });
});
