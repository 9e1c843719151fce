/**
 * Issue 48, point 2: no shared slot can be hogged. upload_url: one address (any number of guest tokens)
 * holds at most URL_FETCHES_PER_ADDRESS.perKey of the process's fetches, and a host that accepts and
 * stays silent is given up after URL_FIRST_BYTE_MS. In the suite's mode.
 */
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { URL_FETCHES, URL_FETCHES_PER_ADDRESS } from '../../server/services/uploads.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Caller } from './api-helpers.js';

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
