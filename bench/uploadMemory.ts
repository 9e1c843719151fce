/**
 * `node --import tsx bench/uploadMemory.ts`: an API process's memory under 8 parallel 47 MB whole-file
 * uploads from guests (issue 48: they were read whole before their 413, RSS 241 → 543 MB). One API
 * process of a scale-out deployment (PostgreSQL + Redis on their local ports); the uploads are sent
 * the way the workspace sends them (token field first), each from its own socket, all bytes offered
 * whether or not the server reads them. Prints the API process's RSS before and its peak during the
 * uploads (sampled every 20 ms from /proc), and every answer's status and reason.
 */
import http from 'node:http';
import { rssTree, sleep } from '../scripts/loadtest.js';
import { detectScaleout } from '../tests/support/modes.js';
import { startCluster } from '../tests/support/modesCluster.js';

const PARALLEL = 8;
const SIZE = 47 * 1024 * 1024;

const avail = await detectScaleout();
if (!avail.available) throw new Error(`needs PostgreSQL and Redis: ${avail.reason}`);
const c = await startCluster({ apis: 1, workers: 0, pgUrl: avail.pgUrl, redisUrl: avail.redisUrl });
try {
  const base = new URL(c.apiUrls[0]!);
  const api = c.apis[0]!;
  const file = Buffer.alloc(SIZE, 0x41);
  file[0] = 0xff;
  file[1] = 0xd8;
  file[2] = 0xff;
  const tokens: string[] = [];
  for (let i = 0; i < PARALLEL; i++) {
    const r = await fetch(`${base.origin}/api/v2/guest_token`, { method: 'POST' });
    tokens.push(((await r.json()) as { data: { token: string } }).data.token);
  }
  await sleep(500);
  const before = rssTree(api.pid);
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, rssTree(api.pid));
      await sleep(20);
    }
  })();
  const upload = (token: string) =>
    new Promise<string>((resolve) => {
      const boundary = 'pixmillbench';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="user_token"\r\n\r\n${token}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="job"\r\n\r\ncompress\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const req = http.request(
        {
          host: base.hostname,
          port: base.port,
          method: 'POST',
          path: '/web_api/v1/upload',
          headers: {
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(head.length + file.length + tail.length),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString('utf8')));
          res.on('end', () => {
            let reason: string;
            try {
              reason = (JSON.parse(text) as { data?: { reason?: string } }).data?.reason ?? '';
            } catch {
              reason = text.slice(0, 60);
            }
            resolve(`${res.statusCode} ${reason}`);
          });
        },
      );
      req.on('error', (e) => resolve(`error ${e.message}`));
      req.write(head);
      req.write(file);
      req.end(tail);
    });
  const answers = await Promise.all(tokens.map(upload));
  await sleep(500);
  sampling = false;
  await sampler;
  const MiB = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;
  console.log(
    JSON.stringify(
      {
        parallel: PARALLEL,
        bytesEach: SIZE,
        rssBeforeMiB: MiB(before),
        rssPeakMiB: MiB(peak),
        growthMiB: MiB(peak - before),
        answers,
      },
      null,
      2,
    ),
  );
} finally {
  await c.stop();
}
