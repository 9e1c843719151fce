/**
 * Issue 48, point 2: no shared slot can be hogged. upload_url: one address (any number of guest tokens)
 * holds at most URL_FETCHES_PER_ADDRESS.perKey of the process's fetches, and a host that accepts and
 * stays silent is given up after URL_FIRST_BYTE_MS. download_compress: conversions run in processes of
 * their own, and guests together hold one of the two slots, so an account's conversion is not refused
 * behind two guests' big ones. In the suite's mode.
 */
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { URL_FETCHES, URL_FETCHES_PER_ADDRESS } from '../../server/services/uploads.js';
import { startTestServer, type TestServer } from '../support/server.js';
import sharp from 'sharp';
import { childPids } from '../support/modesCluster.js';
import { Caller } from './api-helpers.js';
import { until } from './until.js';

describe('upload_url slots', () => {
  let srv: TestServer;
  let silent: http.Server;
  const sockets = new Set<net.Socket>();
  let silentUrl = '';
  beforeAll(async () => {
    // a host that takes the connection and the request, and never answers
    silent = http.createServer(() => undefined);
    silent.on('connection', (s) => sockets.add(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    silentUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/photo.jpg`;
    srv = await startTestServer({
      runJobs: false,
      allowPrivateUrls: true,
      trustProxy: ['127.0.0.1'],
      urlFirstByteMs: 3000,
    });
  });
  afterAll(async () => {
    await srv?.stop();
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent?.close(r));
  });

  const fetchFrom = (c: Caller, address: string) =>
    c
      .fetch('/api/job_utils/upload_url', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
        body: new URLSearchParams({ token: c.token, url: silentUrl, type: 'compress' }),
      })
      .then(async (r) => ({ status: r.status, body: (await r.json()) as { code: number; data: any } }));

  it('one address with many guest tokens holds at most its share; another address still fetches; a silent host times out', async () => {
    const perAddress = URL_FETCHES_PER_ADDRESS.perKey;
    expect(perAddress * 4).toBeLessThanOrEqual(URL_FETCHES.total);
    const guests = await Promise.all(Array.from({ length: perAddress + 2 }, () => Caller.guest(srv)));
    const other = await Caller.guest(srv);
    const answers = await Promise.all([
      ...guests.map((g) => fetchFrom(g, '198.51.100.9')),
      fetchFrom(other, '198.51.100.10'),
    ]);
    const mine = answers.slice(0, -1);
    // the address's share waited for the silent host and gave up on it; the rest were refused at once
    expect(mine.filter((a) => a.body.data?.reason === 'urlTimeout').length).toBe(perAddress);
    expect(mine.filter((a) => a.status === 429 && a.body.data?.refusal === 'tooManyRequests').length).toBe(2);
    // the other address was not held back by them
    expect(answers.at(-1)!.body.data).toMatchObject({ reason: 'urlTimeout' });
    expect(URL_FETCHES.active).toBe(0);
  });
});

describe('download_compress slots', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ trustProxy: ['127.0.0.1'] });
  });
  afterAll(async () => srv?.stop());

  /** A finished compress work of a 2000×1500 picture (a gradient: small as JPEG, seconds to quantize as PNG). */
  async function compressed(c: Caller, address: string): Promise<string> {
    const w = 2000;
    const h = 1500;
    const raw = Buffer.alloc(w * h * 3);
    for (let i = 0; i < w * h; i++) {
      raw[i * 3] = (i % w) & 255;
      raw[i * 3 + 1] = Math.floor(i / w) & 255;
      raw[i * 3 + 2] = ((i % w) ^ Math.floor(i / w)) & 255;
    }
    const jpeg = await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
      .jpeg({ quality: 80 })
      .toBuffer();
    const fd = new FormData();
    fd.set('user_token', c.token);
    fd.set('job', 'compress');
    fd.set('file', new Blob([jpeg]), 'big.jpg');
    const headers = { 'x-forwarded-for': address };
    const up = (await (await c.fetch('/web_api/v1/upload', { method: 'POST', body: fd, headers })).json()) as {
      data: { data: { uid: string } };
    };
    const tr = await c.form('/web_api/v1/transform', {
      uid: up.data.data.uid,
      jconfig: JSON.stringify({ job: 'compress', config: { module: 'compress', module_params: { quality: 60 } } }),
    });
    const transId = tr.body.data.trans_id as string;
    await until(
      async () => (await c.get('/web_api/v1/progress', { trans_id: transId })).body.data.status,
      (s) => s !== 'progress',
      { timeoutMs: 120_000 },
    );
    return transId;
  }

  const convert = (c: Caller, transId: string) =>
    c
      .fetch('/api/job/download_compress', {
        method: 'POST',
        body: new URLSearchParams({ trans_id: transId, user_token: c.token, extra_type: 'png' }),
      })
      .then(async (r) => ({ status: r.status, bytes: Buffer.from(await r.arrayBuffer()) }));

  it("guests hold one conversion slot at most, run outside the API process; an account's conversion is not refused", async () => {
    const a = await Caller.guest(srv);
    const b = await Caller.guest(srv);
    const pro = await Caller.user(srv, 'convert-pro@example.com', 'pro');
    const [ta, tb, tp] = [
      await compressed(a, '192.0.2.31'),
      await compressed(b, '192.0.2.32'),
      await compressed(pro, '192.0.2.33'),
    ];
    const before = srv.ctx.services.downloads.conversions;
    const first = convert(a, ta);
    // once guest A's conversion runs (in a conversion process of its own) …
    const running = await until(
      () => ({ n: srv.ctx.services.downloads.conversions, kids: convertPids() }),
      (v) => v.n > before && v.kids.length > 0,
    );
    expect(running.kids.length).toBeGreaterThan(0);
    // … a second guest is refused at once, and the Pro account's conversion runs beside it
    const second = await convert(b, tb);
    expect(second.status).toBe(429);
    const mine = await convert(pro, tp);
    expect(mine.status).toBe(200);
    const meta = await sharp(mine.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 2000, 1500]);
    expect((await first).status).toBe(200);
  }, 300_000);
});

/** This process's compress conversion processes (server/jobs/convertChild.ts), by their command line. */
function convertPids(): number[] {
  return childPids(process.pid).filter((p) => {
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('convertChild');
    } catch {
      return false;
    }
  });
}
