/**
 * Scale-out mode, rate limits: two API processes of one deployment (one PostgreSQL database, one Redis,
 * one QUEUE_PREFIX) count requests together, so a limit holds across the balancer instead of once per
 * process; another deployment on the same Redis keeps its own counts; with Redis unreachable requests
 * are still answered (the limits let them through). Skips (saying why) when PostgreSQL or Redis does not answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { until } from './until.js';
import {
  detectScaleout,
  scaleoutOverrides,
  startTcpProxy,
  type ModeOverrides,
  type TcpProxy,
} from '../support/modes.js';

const avail = await detectScaleout();
if (!avail.available) console.warn(`scale-out rate-limit tests SKIPPED: ${avail.reason}`);

const LIMIT = 4;
const guestToken = async (srv: TestServer) => (await fetch(`${srv.url}/api/v2/guest_token`, { method: 'POST' })).status;

describe.skipIf(!avail.available)('scale-out: rate limits are shared by the API processes of a deployment', () => {
  let deployment: ModeOverrides;
  let other: ModeOverrides;
  let a: TestServer, b: TestServer, c: TestServer;

  beforeAll(async () => {
    deployment = await scaleoutOverrides({ pgUrl: avail.pgUrl, redisUrl: avail.redisUrl });
    other = await scaleoutOverrides({ pgUrl: avail.pgUrl, redisUrl: avail.redisUrl });
    a = await startTestServer({ ...deployment.overrides, runJobs: false, guestTokenRateLimit: LIMIT });
    b = await startTestServer({ ...deployment.overrides, runJobs: false, guestTokenRateLimit: LIMIT });
    c = await startTestServer({ ...other.overrides, runJobs: false, guestTokenRateLimit: LIMIT });
  });
  afterAll(async () => {
    await Promise.allSettled([a?.stop(), b?.stop(), c?.stop()]);
    await Promise.allSettled([deployment?.cleanup(), other?.cleanup()]);
  });

  it(`the guest-token limit (${LIMIT} a minute per address) counts requests to both processes together`, async () => {
    const codes = [await guestToken(a), await guestToken(b), await guestToken(a), await guestToken(b)];
    expect(codes).toEqual([200, 200, 200, 200]);
    // each process has seen only 2 requests: with counts per process both would still answer 200
    expect(await guestToken(a)).toBe(429);
    expect(await guestToken(b)).toBe(429);
  });

  it('another deployment on the same Redis (another QUEUE_PREFIX) keeps its own counts', async () => {
    expect(await guestToken(c)).toBe(200);
  });
});

describe.skipIf(!avail.available)('scale-out: rate limits while Redis is unreachable', () => {
  let deployment: ModeOverrides;
  let proxy: TcpProxy;
  let srv: TestServer;

  beforeAll(async () => {
    deployment = await scaleoutOverrides({ pgUrl: avail.pgUrl, redisUrl: avail.redisUrl });
    const r = new URL(avail.redisUrl);
    proxy = await startTcpProxy(r.hostname, Number(r.port || 6379));
    srv = await startTestServer({
      ...deployment.overrides,
      redisUrl: proxy.url(avail.redisUrl),
      runJobs: false,
      guestTokenRateLimit: 2,
    });
  });
  afterAll(async () => {
    await srv?.stop();
    await proxy?.close();
    await deployment?.cleanup();
  });

  it('requests are answered, not refused, and the limit counts again once Redis is back', async () => {
    expect([await guestToken(srv), await guestToken(srv)]).toEqual([200, 200]);
    expect(await guestToken(srv)).toBe(429);
    await proxy.stop();
    // the counts cannot be read: let through (flood protection is lost for the outage, the service is not)
    expect(await guestToken(srv)).toBe(200);
    await proxy.start();
    // Redis kept its counts: the address is still over its limit once the store answers again
    expect(
      await until(
        () => guestToken(srv),
        (s) => s === 429,
        { intervalMs: 100 },
      ),
    ).toBe(429);
  });
});
