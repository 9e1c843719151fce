/**
 * `npm run hostile`: 1000 generated malformed uploads against a running scale-out deployment
 * (2 API + 2 worker processes, loopback only, bounded in time): truncated files, wrong magic bytes,
 * zero bytes, huge declared dimensions, PNG bombs, corrupted bodies, oversize files, wrong and
 * duplicate slice numbers, mismatched totals and tokens, broken multipart (no boundary, truncated,
 * garbage, too many fields), deeply nested jconfig, undecodable URLs, forged X-Forwarded-For and
 * cross-origin cookie posts. Slice cases run as Pro accounts (made with the operator command), so
 * they reach the slice code, including 6 concurrent identical last slices. Every answer must be a
 * clear envelope {code, msg} below HTTP 500; no process may die; RSS is reported before and after.
 *
 * Then the stall classes (runStallClasses): 60 000 repeated characters in every text field of every
 * route (12 000 in GET queries, which headers cap at 16 KB), NUL bytes in every string field, a
 * parallel-login race against the per-email lockout, and anonymous write bursts; meanwhile a probe
 * asks every API process for /api/health back to back, and any answer slower than 200 ms is a stall.
 * The API processes run an event-loop watchdog (LOOP_WATCH_MS=200, server/http/loopWatch.ts) that
 * tells a loop our code held (blocked) from one the machine's other load kept off the cores
 * (starved); a probe stall that no starved gap explains fails the run, and so does any blocked gap.
 * Both database modes run: SQLite (one embedded process) and PostgreSQL + Redis (2 API + 2 worker
 * processes); every process listens on 127.0.0.1 only.
 *
 * Options (env): HOSTILE_COUNT (1000), HOSTILE_CONCURRENCY (16), HOSTILE_LIMIT_S (90),
 * HOSTILE_MODES (sqlite,scaleout).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';
import sharp from 'sharp';
import type { LoopGap } from '../server/http/loopWatch.js';
import { detectScaleout } from '../tests/support/modes.js';
import { freePort, startCluster, type Proc } from '../tests/support/modesCluster.js';
import { rssOfCluster, type Envelope } from './loadtest.js';

/** Deterministic PRNG (mulberry32), so a failing input can be generated again. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
function ihdr(w: number, h: number, colorType = 0): Buffer {
  const d = Buffer.alloc(13);
  d.writeUInt32BE(w, 0);
  d.writeUInt32BE(h, 4);
  d[8] = 8;
  d[9] = colorType;
  return pngChunk('IHDR', d);
}

/** A real, valid grey PNG of side×side zero pixels: tiny on the wire, huge once decoded. */
async function pngBomb(side: number): Promise<Buffer> {
  const z = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  z.on('data', (b: Buffer) => parts.push(b));
  const done = new Promise((resolve, reject) => z.on('end', resolve).on('error', reject));
  // rows of (filter byte 0 + zeros), written in blocks so memory stays small
  const block = Buffer.alloc((side + 1) * 64);
  for (let y = 0; y < side; y += 64) {
    const rows = Math.min(64, side - y);
    if (!z.write(rows === 64 ? block : block.subarray(0, (side + 1) * rows)))
      await new Promise((r) => z.once('drain', r));
  }
  z.end();
  await done;
  return Buffer.concat([
    PNG_SIG,
    ihdr(side, side),
    pngChunk('IDAT', Buffer.concat(parts)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** JPEG with its frame header's dimensions rewritten. */
function patchJpegDims(jpeg: Buffer, w: number, h: number): Buffer {
  const out = Buffer.from(jpeg);
  for (let i = 2; i < out.length - 9;) {
    if (out[i] !== 0xff) break;
    const marker = out[i + 1]!;
    const len = out.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc3) {
      out.writeUInt16BE(h, i + 5);
      out.writeUInt16BE(w, i + 7);
      return out;
    }
    i += 2 + len;
  }
  return out;
}

export interface HostileInput {
  kind: string;
  /** the server must refuse it (an accepted one is reported) */
  refuse: boolean;
  send(h: HostileClient): Promise<Answer>;
}

interface Answer {
  status: number;
  body: Envelope | null;
  raw: string;
}

function answerOf(status: number, raw: string): Answer {
  let parsed: Envelope | null;
  try {
    parsed = JSON.parse(raw) as Envelope;
  } catch {
    parsed = null;
  }
  return { status, body: parsed, raw: raw.slice(0, 200) };
}

/** A clear answer: below HTTP 500, an envelope with a numeric code and a message. */
const isClear = (a: Answer) =>
  a.status < 500 &&
  a.body !== null &&
  typeof a.body.code === 'number' &&
  typeof a.body.msg === 'string' &&
  a.body.msg.length > 0;

const BOUNDARY = 'hostileBoundary7MA4YWxkTrZu0gW';
function multipartBody(fields: Record<string, string>, file?: { name: string; data: Buffer }): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

/** Sends to the API processes round-robin with a pool of guest tokens. */
export class HostileClient {
  private n = 0;
  constructor(
    readonly bases: string[],
    readonly tokens: string[],
    /** user tokens of Pro accounts: their 50 MB limit lets multi-slice uploads reach the slice code */
    readonly proTokens: string[] = tokens,
  ) {}
  base() {
    return this.bases[this.n++ % this.bases.length]!;
  }
  token(i: number) {
    return this.tokens[i % this.tokens.length]!;
  }
  proToken(i: number) {
    return this.proTokens[i % this.proTokens.length]!;
  }
  async post(
    path: string,
    body: FormData | URLSearchParams | string | Buffer,
    headers: Record<string, string> = {},
    base = this.base(),
  ): Promise<Answer> {
    const res = await fetch(base + path, { method: 'POST', body, headers, signal: AbortSignal.timeout(30_000) });
    return answerOf(res.status, await res.text());
  }
  /** Exact bytes on a socket, for requests fetch would not send as they are (`GET /%`). */
  raw(request: string, base = this.base()): Promise<Answer> {
    const u = new URL(base);
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      const s = net.connect(Number(u.port), u.hostname, () => s.end(request));
      s.setTimeout(30_000, () => s.destroy(new Error('timeout')));
      s.on('data', (d: Buffer) => chunks.push(d));
      s.on('error', reject);
      s.on('close', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
        if (!status) return reject(new Error(`no HTTP answer: ${text.slice(0, 80)}`));
        resolve(answerOf(status, text.slice(text.indexOf('\r\n\r\n') + 4)));
      });
    });
  }
  upload(token: string | null, file: Buffer | null, name: string, job = 'compress'): Promise<Answer> {
    const fd = new FormData();
    if (token !== null) fd.set('user_token', token);
    fd.set('job', job);
    if (file) fd.set('file', new Blob([file]), name);
    return this.post('/web_api/v1/upload', fd);
  }
  /** Slice 1 of `total`: its answer, and the upload's uid when the server took it. */
  async firstSlice(token: string, file: Buffer, total: string): Promise<{ first: Answer; uid: string | undefined }> {
    const first = await this.slice(token, { file, blob_num: '1', total });
    return { first, uid: first.body?.data?.uid as string | undefined };
  }
  slice(
    token: string | null,
    f: { file: Buffer | null; blob_num: string; total: string; uid?: string; name?: string },
    base?: string,
  ): Promise<Answer> {
    const fd = new FormData();
    if (token !== null) fd.set('user_token', token);
    fd.set('job', 'compress');
    fd.set('blob_num', f.blob_num);
    fd.set('total_blob_num', f.total);
    fd.set('name', f.name ?? 'x.jpg');
    if (f.uid) fd.set('uid', f.uid);
    if (f.file) fd.set('file', new Blob([f.file]), f.name ?? 'x.jpg');
    return this.post('/api/v2/upload_slice', fd, {}, base);
  }
}

/** The 1000 (or `count`) inputs, cycling through every kind with varied parameters. */
export async function generateInputs(count: number, seed = 20261121): Promise<HostileInput[]> {
  const rnd = prng(seed);
  const int = (a: number, b: number) => a + Math.floor(rnd() * (b - a + 1));
  const jpeg = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 200, g: 80, b: 20 } } })
    .jpeg({ quality: 90 })
    .toBuffer();
  const png = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 20, g: 80, b: 200 } } })
    .png()
    .toBuffer();
  const bombs = [await pngBomb(8000), await pngBomb(20000)];
  const oversize = Buffer.concat([jpeg.subarray(0, 4), Buffer.alloc(6 * 1024 * 1024, 7)]);
  const MAGICS = [
    Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'),
    Buffer.from('%PDF-1.7\n', 'latin1'),
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    Buffer.from('BM6\x00\x00\x00', 'latin1'),
    Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1'),
    Buffer.from('II*\x00', 'latin1'),
    Buffer.from('<?php echo 1; ?>'),
  ];
  const rand = (n: number) => Buffer.from(Array.from({ length: n }, () => int(0, 255)));
  const kinds: Array<() => HostileInput> = [
    () => {
      const cut = int(2, jpeg.length - 3);
      return {
        kind: 'truncated-jpeg',
        refuse: true,
        send: (h) => h.upload(h.token(cut), jpeg.subarray(0, cut), 'cut.jpg'),
      };
    },
    () => {
      const cut = int(8, png.length - 13);
      return {
        kind: 'truncated-png',
        refuse: true,
        send: (h) => h.upload(h.token(cut), png.subarray(0, cut), 'cut.png'),
      };
    },
    () => {
      const m = MAGICS[int(0, MAGICS.length - 1)]!;
      const body = Buffer.concat([m, rand(int(0, 2000))]);
      return {
        kind: 'wrong-magic',
        refuse: true,
        send: (h) => h.upload(h.token(body.length), body, rnd() < 0.5 ? 'evil.jpg' : 'evil.png'),
      };
    },
    () => ({ kind: 'random-bytes', refuse: true, send: (h) => h.upload(h.token(1), rand(int(1, 4096)), 'noise.jpg') }),
    () => ({ kind: 'zero-bytes', refuse: true, send: (h) => h.upload(h.token(2), Buffer.alloc(0), 'empty.jpg') }),
    () => {
      const w = int(30_000, 0x7fffffff);
      const body = Buffer.concat([
        PNG_SIG,
        ihdr(w, int(30_000, 0x7fffffff), 2),
        pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(64))),
        pngChunk('IEND', Buffer.alloc(0)),
      ]);
      return { kind: 'huge-dims-png', refuse: true, send: (h) => h.upload(h.token(w), body, 'huge.png') };
    },
    () => {
      const body = patchJpegDims(jpeg, int(20_000, 65_535), int(20_000, 65_535));
      return { kind: 'huge-dims-jpeg', refuse: true, send: (h) => h.upload(h.token(3), body, 'huge.jpg') };
    },
    // 64 MP for a job under the guest's 2.8 MP limit, 400 MP for compress (whose own limit is by file size and 100 MP)
    () => ({
      kind: 'png-bomb-64mp-enlarge',
      refuse: true,
      send: (h) => h.upload(h.token(4), bombs[0]!, 'bomb.png', 'enlarge'),
    }),
    () => ({
      kind: 'png-bomb-400mp-compress',
      refuse: true,
      send: (h) => h.upload(h.token(4), bombs[1]!, 'bomb.png', 'compress'),
    }),
    () => {
      const body = Buffer.from(jpeg);
      const at = int(200, body.length - 10);
      rand(8).copy(body, at);
      // A few garbled bytes inside entropy-coded data may still decode: either answer is clear.
      return { kind: 'corrupt-middle-jpeg', refuse: false, send: (h) => h.upload(h.token(at), body, 'garbled.jpg') };
    },
    () => ({ kind: 'oversize', refuse: true, send: (h) => h.upload(h.token(5), oversize, 'big.jpg') }),
    () => ({ kind: 'no-file', refuse: true, send: (h) => h.upload(h.token(6), null, 'none.jpg') }),
    () => ({
      kind: 'not-multipart',
      refuse: true,
      send: (h) =>
        h.post('/web_api/v1/upload', JSON.stringify({ file: 'AAAA' }), { 'content-type': 'application/json' }),
    }),
    () => ({
      kind: 'bad-token',
      refuse: true,
      send: (h) => h.upload(rnd() < 0.5 ? 'g_' + 'A'.repeat(30) : '../../etc/passwd', jpeg, 'ok.jpg'),
    }),
    () => ({ kind: 'no-token', refuse: true, send: (h) => h.upload(null, jpeg, 'ok.jpg') }),
    () => ({
      kind: 'bad-job',
      refuse: true,
      send: (h) => h.upload(h.token(7), jpeg, 'ok.jpg', '<script>alert(1)</script>'),
    }),
    () => ({
      kind: 'hostile-filename',
      refuse: false,
      send: (h) => h.upload(h.token(8), jpeg, '../../etc/passwd\u0000.jpg'),
    }),
    () => {
      const choices: [string, string][] = [
        ['0', '1'],
        ['-1', '2'],
        ['abc', '2'],
        ['', '1'],
        ['3', '2'],
        ['1.5', '2'],
        ['1', '0'],
        ['1', '-3'],
        ['1', 'x'],
        ['1', '100000'],
        ['2', '2'],
      ];
      const [b, t] = choices[int(0, choices.length - 1)]!;
      return {
        kind: 'slice-bad-numbers',
        refuse: true,
        send: (h) => h.slice(h.proToken(9), { file: jpeg, blob_num: b, total: t }),
      };
    },
    () => ({
      kind: 'slice-duplicate',
      refuse: false,
      async send(h) {
        const tok = h.proToken(10);
        const half = Math.ceil(jpeg.length / 2);
        const { first, uid } = await h.firstSlice(tok, jpeg.subarray(0, half), '2');
        if (!uid) return first;
        const dup = await h.slice(tok, { file: jpeg.subarray(0, half), blob_num: '1', total: '2', uid });
        if (dup.status >= 500 || !dup.body) return dup;
        const last = await h.slice(tok, { file: jpeg.subarray(half), blob_num: '2', total: '2', uid });
        if (last.status >= 500 || !last.body) return last;
        // the same last slice again, after completion
        return h.slice(tok, { file: jpeg.subarray(half), blob_num: '2', total: '2', uid });
      },
    }),
    () => ({
      kind: 'slice-total-mismatch',
      refuse: true,
      async send(h) {
        const tok = h.proToken(11);
        const { first, uid } = await h.firstSlice(tok, jpeg.subarray(0, 100), '3');
        if (!uid) return first;
        return h.slice(tok, { file: jpeg.subarray(100), blob_num: '2', total: '2', uid });
      },
    }),
    () => ({
      kind: 'slice-mismatched-token',
      refuse: true,
      async send(h) {
        const { first, uid } = await h.firstSlice(h.proToken(12), jpeg.subarray(0, 100), '2');
        if (!uid) return first;
        // another account continues someone else's upload
        return h.slice(h.proToken(13), { file: jpeg.subarray(100), blob_num: '2', total: '2', uid });
      },
    }),
    () => ({
      kind: 'slice-unknown-uid',
      refuse: true,
      send: (h) =>
        h.slice(h.proToken(14), { file: jpeg, blob_num: '2', total: '2', uid: '00000000-0000-4000-8000-000000000000' }),
    }),
    () => ({
      kind: 'slice-empty',
      refuse: true,
      send: (h) => h.slice(h.proToken(15), { file: Buffer.alloc(0), blob_num: '1', total: '1' }),
    }),
    () => {
      const m = MAGICS[int(0, MAGICS.length - 1)]!;
      return {
        kind: 'slice-wrong-magic',
        refuse: true,
        send: (h) => h.slice(h.proToken(16), { file: Buffer.concat([m, rand(300)]), blob_num: '1', total: '1' }),
      };
    },
    () => ({
      kind: 'slice-concurrent-last',
      refuse: false,
      async send(h) {
        // 6 identical last slices at once (a client retrying on a flaky network): each answer clear, one file.
        const tok = h.proToken(17);
        const half = Math.ceil(jpeg.length / 2);
        const { first, uid } = await h.firstSlice(tok, jpeg.subarray(0, half), '2');
        if (!uid) return first;
        const base = h.base();
        const lasts = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            h.slice(tok, { file: jpeg.subarray(half), blob_num: '2', total: '2', uid }, i % 2 ? h.base() : base),
          ),
        );
        return lasts.find((a) => !isClear(a)) ?? lasts.find((a) => a.body?.code !== 200) ?? lasts[5]!;
      },
    }),
    () => ({
      kind: 'multipart-no-boundary',
      refuse: true,
      send: (h) =>
        h.post(
          '/web_api/v1/upload',
          multipartBody({ user_token: h.token(18), job: 'compress' }, { name: 'a.jpg', data: jpeg }),
          { 'content-type': 'multipart/form-data' },
        ),
    }),
    () => {
      const at = rnd();
      const route = rnd() < 0.5 ? '/web_api/v1/upload' : '/api/v2/upload_slice';
      return {
        kind: 'multipart-truncated',
        refuse: true,
        send: (h) => {
          const full = multipartBody({ user_token: h.token(19), job: 'compress' }, { name: 'a.jpg', data: jpeg });
          // cut anywhere before the closing delimiter is complete
          return h.post(route, full.subarray(0, 1 + Math.floor(at * (full.length - 5))), {
            'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          });
        },
      };
    },
    () => {
      const garbage = rand(int(0, 3000));
      return {
        kind: 'multipart-garbage',
        refuse: true,
        send: (h) =>
          h.post('/web_api/v1/upload', garbage, { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }),
      };
    },
    () => {
      const n = int(21, 200);
      return {
        kind: 'multipart-too-many-fields',
        refuse: true,
        send: (h) => {
          const fields: Record<string, string> = { user_token: h.token(20), job: 'compress' };
          for (let i = 0; i < n; i++) fields[`f${i}`] = 'x';
          return h.post('/web_api/v1/upload', multipartBody(fields, { name: 'a.jpg', data: jpeg }), {
            'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          });
        },
      };
    },
    () => {
      const depth = int(1_000, 200_000);
      const deep =
        rnd() < 0.5 ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
      const asJson = rnd() < 0.5;
      return {
        kind: 'deep-jconfig',
        refuse: true,
        async send(h) {
          // on a real upload, so the jconfig is read (an unknown uid is refused before it)
          const tok = h.proToken(21);
          const up = await h.upload(tok, jpeg, 'deep.jpg');
          const uid = (up.body?.data?.data as { uid?: string } | undefined)?.uid;
          if (!uid) return up;
          return asJson
            ? h.post('/web_api/v1/transform', `{"user_token":"${tok}","uid":"${uid}","jconfig":${deep}}`, {
                'content-type': 'application/json',
              })
            : h.post('/web_api/v1/transform', new URLSearchParams({ user_token: tok, uid, jconfig: deep }));
        },
      };
    },
    () => {
      const paths = ['/%', '/api/v2/point%', '/web_api/v1/%zz', '/%E0%A4%A', '/api/%c0%af'];
      const p = paths[int(0, paths.length - 1)]!;
      return {
        kind: 'bad-url',
        refuse: true,
        send: (h) =>
          h.raw(`GET ${p}?user_token=${h.token(22)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
      };
    },
    () => {
      const ip = `${int(1, 223)}.${int(0, 255)}.${int(0, 255)}.${int(1, 254)}`;
      return {
        kind: 'spoofed-xff-login',
        refuse: true,
        send: (h) =>
          h.post(
            '/api/account/login',
            new URLSearchParams({ email: `nobody${int(0, 1e6)}@example.com`, password: 'wrong-passw0rd' }),
            { 'x-forwarded-for': ip, 'x-real-ip': ip },
          ),
      };
    },
    () => {
      const targets: Array<[string, Record<string, string>]> = [
        ['/api/v2/user_info/update', { locale: 'de' }],
        ['/api/v2/survey/set', { occupations: 'designer' }],
        ['/api/work_flow/add', { name: 'evil', flows: '[]' }],
        ['/api/work_flow/delete', { id: '1' }],
        ['/api/account/logout', {}],
        ['/api/v2/bind_token', { guest_token_v2: 'g' }],
      ];
      const [p, f] = targets[int(0, targets.length - 1)]!;
      return {
        kind: 'cross-origin-cookie-post',
        refuse: true,
        send: (h) =>
          h.post(p, new URLSearchParams(f), {
            origin: 'https://evil.example',
            cookie: `user_token=${h.proToken(23)}; guest_token=${h.token(23)}`,
          }),
      };
    },
  ];
  return Array.from({ length: count }, (_, i) => kinds[i % kinds.length]!());
}

export interface HostileReport {
  inputs: number;
  answered: number;
  /** HTTP < 500 with a JSON envelope {code: number, msg: non-empty} */
  clear: number;
  unclear: number;
  unclearSamples: string[];
  /** inputs meant to be refused that the server accepted */
  acceptedButShouldRefuse: number;
  acceptedSamples: string[];
  byKind: Record<string, { n: number; answers: Record<string, number> }>;
  durationS: number;
  processesAlive: number;
  processesCrashed: string[];
  healthyAfter: boolean;
  rssBeforeMiB: Record<string, number>;
  rssAfterMiB: Record<string, number>;
  /** logins with a new X-Forwarded-For each from one peer: the per-address limit (30 a minute) must still hold */
  spoofedXff: { sent: number; limited: number; held: boolean };
}

/**
 * Pro accounts made the way an operator does it: registered through the API, then
 * `npm run admin -- grant <email> pro` against the deployment's database. Returns their user tokens.
 */
export async function proAccounts(c: Deployment, n: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) {
    const email = `hostile-pro-${Date.now().toString(36)}-${i}@example.com`;
    const res = await fetch(c.apiUrls[0] + '/api/account/register', {
      method: 'POST',
      body: new URLSearchParams({ email, password: 'Hostile-passw0rd', confirm_password: 'Hostile-passw0rd' }),
    });
    const r = (await res.json()) as Envelope<{ user_token: string }>;
    if (r.code !== 200) throw new Error(`register: ${JSON.stringify(r)}`);
    const admin = spawn(
      process.execPath,
      ['--import', 'tsx', path.resolve(import.meta.dirname, 'admin.ts'), 'grant', email, 'pro'],
      { env: c.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    admin.stdout.on('data', (d: Buffer) => (out += d));
    admin.stderr.on('data', (d: Buffer) => (out += d));
    const code = await new Promise<number | null>((resolve) => admin.once('exit', resolve));
    if (code !== 0 || !/"level":\s*"pro"/.test(out))
      throw new Error(`admin grant ${email} pro failed (${code}): ${out.slice(0, 300)}`);
    tokens.push(r.data.user_token);
  }
  return tokens;
}

/** 35 failed logins from this one peer, each naming a new client in X-Forwarded-For. */
async function spoofedXffCheck(base: string): Promise<HostileReport['spoofedXff']> {
  let limited = 0;
  const sent = 35;
  for (let i = 0; i < sent; i++) {
    const ip = `198.18.${i}.${(i * 7) % 250}`;
    const res = await fetch(base + '/api/account/login', {
      method: 'POST',
      body: new URLSearchParams({ email: `xff${i}@example.com`, password: 'wrong-passw0rd' }),
      headers: { 'x-forwarded-for': ip },
    });
    await res.arrayBuffer();
    if (res.status === 429) limited++;
  }
  return { sent, limited, held: limited > 0 };
}

export async function runHostile(
  c: Deployment,
  opts: { count: number; concurrency: number; limitMs: number },
): Promise<HostileReport> {
  const inputs = await generateInputs(opts.count);
  const tokens: string[] = [];
  for (let i = 0; i < 20; i++) {
    const r = (await (
      await fetch(c.apiUrls[i % c.apiUrls.length] + '/api/v2/guest_token', { method: 'POST' })
    ).json()) as Envelope<{ token: string }>;
    if (r.code !== 200) throw new Error(`guest_token: ${JSON.stringify(r)}`);
    tokens.push(r.data.token);
  }
  const h = new HostileClient(c.apiUrls, tokens, await proAccounts(c, 4));
  const rssBefore = rssOfCluster(c);
  const deadline = Date.now() + opts.limitMs;
  const report: HostileReport = {
    inputs: opts.count,
    answered: 0,
    clear: 0,
    unclear: 0,
    unclearSamples: [],
    acceptedButShouldRefuse: 0,
    acceptedSamples: [],
    byKind: {},
    durationS: 0,
    processesAlive: 0,
    processesCrashed: [],
    healthyAfter: false,
    rssBeforeMiB: rssBefore,
    rssAfterMiB: {},
    spoofedXff: { sent: 0, limited: 0, held: false },
  };
  const t0 = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < inputs.length && Date.now() < deadline) {
      const input = inputs[next++]!;
      const k = (report.byKind[input.kind] ??= { n: 0, answers: {} });
      k.n++;
      let a: Answer;
      try {
        a = await input.send(h);
      } catch (e) {
        report.unclear++;
        if (report.unclearSamples.length < 20)
          report.unclearSamples.push(`${input.kind}: no answer (${e instanceof Error ? e.message : String(e)})`);
        k.answers['no answer'] = (k.answers['no answer'] ?? 0) + 1;
        continue;
      }
      report.answered++;
      const label = `${a.status}/${a.body?.code ?? '-'}`;
      k.answers[label] = (k.answers[label] ?? 0) + 1;
      const clear = isClear(a);
      if (clear) report.clear++;
      else {
        report.unclear++;
        if (report.unclearSamples.length < 20) report.unclearSamples.push(`${input.kind}: HTTP ${a.status} ${a.raw}`);
      }
      if (clear && input.refuse && a.status === 200 && a.body!.code === 200) {
        report.acceptedButShouldRefuse++;
        if (report.acceptedSamples.length < 20) report.acceptedSamples.push(`${input.kind}: ${a.raw}`);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, lane));
  report.durationS = Math.round((performance.now() - t0) / 100) / 10;
  report.spoofedXff = await spoofedXffCheck(c.apiUrls[0]!);
  const procs = [...c.apis, ...c.workers];
  report.processesCrashed = procs
    .filter((p) => p.child.exitCode !== null || p.child.signalCode !== null)
    .map((p) => `${p.name}: ${p.log().split('\n').slice(-3).join(' | ')}`);
  report.processesAlive = procs.length - report.processesCrashed.length;
  const health = await Promise.all(
    c.apiUrls.map((u) =>
      fetch(u + '/api/health').then(
        (r) => r.ok,
        () => false,
      ),
    ),
  );
  report.healthyAfter = health.every(Boolean);
  report.rssAfterMiB = rssOfCluster(c);
  return report;
}

/** What a hostile run is pointed at: the API processes (and workers) of one deployment, loopback only. */
export interface Target {
  mode: 'sqlite' | 'scaleout';
  /** where the API processes' event-loop watchdog (LOOP_WATCH_MS) writes its gaps */
  loopWatchFile: string;
  apiUrls: string[];
  apis: Proc[];
  workers: Proc[];
  /** the environment of its processes (the admin command runs with it) */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** What the runs need of a deployment (a Cluster of modesCluster.ts fits too). */
export type Deployment = Pick<Target, 'apiUrls' | 'apis' | 'workers' | 'env'> & { loopWatchFile?: string };

/** The watchdog's settings for every API process: gaps over 200 ms, classified blocked/starved. */
const loopWatchEnv = (file: string) => ({ LOOP_WATCH_MS: '200', LOOP_WATCH_FILE: file });

/** The embedded deployment: one process, SQLite in a fresh DATA_DIR, jobs in-process, on 127.0.0.1. */
export async function startEmbedded(): Promise<Target> {
  const root = path.resolve(import.meta.dirname, '..');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-hostile-'));
  const port = await freePort();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    CLIENT_DIR: path.join(dataDir, 'no-client'),
    LOG_LEVEL: 'error',
    GUEST_TOKEN_RATE_LIMIT: '100000',
    PROCESS_WORKERS: '1',
    ENGINE_THREADS: '1',
    PIXMILL_TEST_MODE: '',
    ...loopWatchEnv(path.join(dataDir, 'loop-watch.jsonl')),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (b: Buffer) =>
    lines.push(
      ...b
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((l) => l.slice(0, 400)),
    );
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const proc: Proc = {
    name: 'api1',
    child,
    pid: child.pid!,
    exited,
    log: () => lines.slice(-80).join('\n'),
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`embedded server exited:\n${proc.log()}`);
    if (
      await fetch(url + '/api/health').then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > end) throw new Error(`embedded server not ready:\n${proc.log()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    mode: 'sqlite',
    loopWatchFile: env.LOOP_WATCH_FILE!,
    apiUrls: [url],
    apis: [proc],
    workers: [],
    env,
    async stop() {
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await proc.kill('SIGTERM');
      clearTimeout(t);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The scale-out deployment of loadtest.ts (2 API + 2 workers on PostgreSQL + Redis). */
export async function startScaleout(): Promise<Target> {
  const avail = await detectScaleout();
  if (!avail.available)
    throw new Error(`the scale-out mode needs PostgreSQL and Redis on their local ports: ${avail.reason}`);
  const loopWatchFile = path.join(os.tmpdir(), `pixmill-hostile-loop-${process.pid}-${Date.now()}.jsonl`);
  const c = await startCluster({
    apis: 2,
    workers: 2,
    pgUrl: avail.pgUrl,
    redisUrl: avail.redisUrl,
    env: { GUEST_TOKEN_RATE_LIMIT: '100000', LOG_LEVEL: 'error', ...loopWatchEnv(loopWatchFile) },
  });
  return {
    mode: 'scaleout',
    loopWatchFile,
    apiUrls: c.apiUrls,
    apis: c.apis,
    workers: c.workers,
    env: c.env,
    stop: async () => {
      await c.stop();
      fs.rmSync(loopWatchFile, { force: true });
    },
  };
}

/** The watchdog's gaps recorded after `from` (a byte offset of its file). */
function loopGaps(file: string | undefined, from: number): { gaps: LoopGap[]; end: number } {
  if (!file || !fs.existsSync(file)) return { gaps: [], end: 0 };
  const buf = fs.readFileSync(file);
  const gaps = buf
    .subarray(from)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LoopGap);
  return { gaps, end: buf.length };
}

// ---------------------------------------------------------------------------------------------
// The stall classes: regex stalls, NUL bytes, the login race, anonymous write bursts.

/** One request from a chosen loopback source address (127.0.0.x), so per-address limits see many clients. */
function requestFrom(
  base: string,
  from: string,
  method: string,
  p: string,
  body?: { type: string; data: Buffer | string },
): Promise<Answer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { connection: 'close' };
    if (body) {
      headers['content-type'] = body.type;
      headers['content-length'] = String(Buffer.byteLength(body.data));
    }
    const req = http.request(
      { host: u.hostname, port: u.port, method, path: p, localAddress: from, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(answerOf(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))));
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body?.data);
  });
}

/** A text field of a route, and how its request is sent. */
interface FieldCase {
  route: string;
  method: 'POST' | 'GET';
  /** json: a JSON body (1 MB limit, so 60 000 of any character fit); multipart: a form with a file part; query: GET */
  as: 'json' | 'multipart' | 'query';
  fields: Record<string, string>;
  /** the field given the hostile value */
  field: string;
}

/** Every text field the API reads, with the other fields a real call sends (tokens filled in later). */
function textFields(t: { user: string; guest: string; pro: string; nonce: string }): FieldCase[] {
  const cases: FieldCase[] = [];
  const add = (route: string, as: FieldCase['as'], fields: Record<string, string>, hostile = Object.keys(fields)) => {
    for (const field of hostile) cases.push({ route, method: as === 'query' ? 'GET' : 'POST', as, fields, field });
  };
  add('/api/contact/send', 'json', { name: 'n', email: 'a@example.com', message: 'hello', locale: 'en' });
  add('/api/account/login', 'json', { email: 'a@example.com', password: 'passw0rdA1' });
  add('/api/account/register', 'json', {
    email: 'a@example.com',
    password: 'passw0rdA1',
    confirm_password: 'passw0rdA1',
  });
  add(
    '/api/account/password',
    'json',
    { user_token: t.user, old_password: 'x', password: 'passw0rdA2', confirm_password: 'passw0rdA2' },
    ['old_password', 'password', 'confirm_password'],
  );
  add('/api/v2/user_info/update', 'json', {
    user_token: t.user,
    locale: 'en',
    currency: 'EUR',
    first_name: 'a',
    last_name: 'b',
  });
  add(
    '/api/v2/profile/set',
    'json',
    { user_token: t.user, first_name: 'a', last_name: 'b', occupation: 'other', occupation_other: 'x' },
    ['first_name', 'last_name', 'occupation', 'occupation_other'],
  );
  add('/api/v2/survey/set', 'json', { user_token: t.user, occupations: 'other', occupation_other: 'x' }, [
    'occupations',
    'occupation_other',
  ]);
  add('/api/work_flow/add', 'json', { user_token: t.user, name: 'w', flows: '[]' }, ['name', 'flows']);
  add('/api/work_flow/update', 'json', { user_token: t.user, id: '1', name: 'w', flows: '[]' }, [
    'id',
    'name',
    'flows',
  ]);
  add('/api/work_flow/delete', 'json', { user_token: t.user, id: '1' }, ['id']);
  add('/web_api/v1/transform', 'json', { user_token: t.guest, uid: 'u', jconfig: '{}' }, [
    'uid',
    'jconfig',
    'user_token',
  ]);
  add(
    '/api/job_utils/upload_url',
    'json',
    { user_token: t.guest, url: 'http://example.invalid/a.jpg', type: 'compress' },
    ['url', 'type'],
  );
  add('/api/v2/upload_slice/status', 'json', { user_token: t.guest, uid: 'u' }, ['uid']);
  add('/web_api/v1/upload/delete', 'json', { user_token: t.guest, uid: 'u' }, ['uid']);
  add('/web_api/v1/upload/list', 'json', { user_token: t.guest, limit: '5' }, ['limit']);
  add('/api/v2/point/check', 'json', { user_token: t.guest, trans_ids: 'a' }, ['trans_ids']);
  add('/api/v2/download/all', 'json', { user_token: t.guest, trans_ids: 'a' }, ['trans_ids']);
  add('/api/job/download_compress', 'json', { user_token: t.guest, trans_id: 'a', extra_type: 'png' }, [
    'trans_id',
    'extra_type',
  ]);
  add('/api/v2/thumbsup', 'json', { user_token: t.guest, trans_id: 'a', thumbsup: '1' }, ['trans_id', 'thumbsup']);
  add('/api/v2/bind_token', 'json', { token: t.user, guest_token_v2: t.guest }, ['guest_token_v2', 'token']);
  add('/api/v2/license', 'json', { guest_token_v2: t.guest }, ['guest_token_v2']);
  add('/api/report', 'json', { event: 'preview', data: '{}' });
  add('/site-ajax', 'json', { action: 'credit_upload', nonce: t.nonce, pid: '1', trans_id: 'a', uid: 'u' });
  add('/api/cart/abandon', 'json', { product_id: '606838', currency: 'EUR', source: 's', medium: 'm' });
  add('/api/mail/unsubscribe', 'json', { email: 'a@example.com', sig: 'x' });
  add('/api/v2/common/email_status', 'json', { user_token: t.user, email: 'a@example.com', sig: 'x' }, [
    'email',
    'sig',
  ]);
  add('/api/payments/checkout', 'json', { user_token: t.user, product_id: '606838', currency: 'EUR' }, [
    'product_id',
    'currency',
  ]);
  add('/web_api/v1/upload', 'multipart', { user_token: t.guest, job: 'compress', name: 'a.jpg', filename: 'a.jpg' }, [
    'job',
    'name',
    'filename',
    'user_token',
  ]);
  add(
    '/api/v2/upload_slice',
    'multipart',
    {
      user_token: t.pro,
      job: 'compress',
      name: 'a.jpg',
      blob_num: '1',
      total_blob_num: '1',
      uid: '',
      filename: 'a.jpg',
    },
    ['name', 'blob_num', 'total_blob_num', 'uid', 'filename'],
  );
  add('/web_api/v1/progress', 'query', { user_token: t.guest, trans_id: 'a' }, ['trans_id']);
  add('/web_api/v1/download/', 'query', { user_token: t.guest, trans_id: 'a', zoom_type: 'x' }, [
    'trans_id',
    'zoom_type',
  ]);
  add('/api/v2/is_subscribed', 'query', { user_token: t.user, email: 'a@example.com' }, ['email']);
  add('/api/promotion/share/bind', 'query', { user_token: t.user, type: 'anniversary_2021', code: 'ABCDEFGH' }, [
    'type',
    'code',
  ]);
  add('/api/job/record', 'query', { user_token: t.guest, limit: '5', page: '1' }, ['limit', 'page']);
  add('/web_api/v1/download/src', 'query', { user_token: t.guest, uid: 'u' }, ['uid']);
  add('/api/v2/sample/download', 'query', { name: 'a', rate: '2' }, ['name', 'rate']);
  return cases;
}

/** The hostile texts: 60 000 of one character, and the shapes that made the old regexes quadratic. */
function longTexts(n: number): Array<[string, string]> {
  return [
    ['dots', '.'.repeat(n)],
    ['a@dots@', `a@${'.'.repeat(n - 3)}@`],
    ['letters', 'a'.repeat(n)],
    ['at-signs', '@'.repeat(n)],
    ['blanks', ' '.repeat(n - 1) + 'x'],
    ['dashes', '-'.repeat(n)],
    ['slashes', '/'.repeat(n)],
    ['backslashes', '\\'.repeat(n)],
    ['percents', '%'.repeat(n)],
    ['dots-then-x', 'a' + '.'.repeat(n - 2) + 'x'],
  ];
}

function bodyFor(
  c: FieldCase,
  value: string,
  jpeg: Buffer,
): { path: string; body?: { type: string; data: Buffer | string } } {
  const fields = { ...c.fields, [c.field]: value };
  if (c.as === 'query') return { path: `${c.route}?${new URLSearchParams(fields).toString()}` };
  if (c.as === 'json') return { path: c.route, body: { type: 'application/json', data: JSON.stringify(fields) } };
  const { filename, ...rest } = fields;
  const data = multipartBody(rest, { name: (filename ?? 'a.jpg').replace(/["\r\n]/g, '_'), data: jpeg });
  return { path: c.route, body: { type: `multipart/form-data; boundary=${BOUNDARY}`, data } };
}

export interface StallReport {
  /** requests sent per class, and how they were answered (HTTP status/envelope code → count) */
  classes: Record<
    string,
    { sent: number; answers: Record<string, number>; http500: number; unclear: number; samples: string[] }
  >;
  /** the probe of other clients: /api/health on every API process, back to back */
  probe: {
    requests: number;
    maxMs: number;
    p99Ms: number;
    stallsOver200ms: number;
    /** stalls during which no API process was starved by the machine (see serverLoop): ours to explain */
    stallsNotFromMachineLoad: number;
    worst: string[];
    /** [start, end] epoch ms of each stall */
    stallSpans: Array<[number, number]>;
  };
  race: { parallel: number; evaluated: number; locked: number; rightPasswordRefused: boolean; held: boolean };
  bursts: Record<string, { sent: number; accepted: number; limited: number; limit: number; held: boolean }>;
  http500: number;
  unclear: number;
  durationS: number;
  /**
   * The API processes' own view (LOOP_WATCH_MS=200): event-loop gaps over 200 ms while this phase
   * ran: "blocked" when the main thread's own time in it (on a core, or asleep in a synchronous call)
   * was over 200 ms — the stall our code would cause on an idle machine; "starved" when the rest of
   * the gap was the thread waiting for a core (the machine busy elsewhere).
   */
  serverLoop: { blockedOver200ms: number; starvedOver200ms: number; gaps: string[] };
  /** the machine's 1-minute load average when the phase ended (2 cores here) */
  loadAverage1m: number;
  /** the slowest answers of the 60 000-character class, to find a field that stalls */
  slowestRegexRequests?: string[];
}

/**
 * Asks /api/health on every API process back to back until stopped, from a worker thread of its own:
 * the load generator's event loop (building 60 KB bodies, reading answers) must not count as the
 * server's stall. Records each answer's time and the phase it fell in.
 */
function startProbe(urls: string[]) {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    let running = true;
    let phase = 'start';
    const times = [];
    parentPort.on('message', (m) => {
      if (m.phase) phase = m.phase;
      if (m.stop) running = false;
    });
    Promise.all(workerData.urls.map(async (u) => {
      while (running) {
        const t0 = performance.now();
        try {
          const r = await fetch(u + '/api/health', { signal: AbortSignal.timeout(30000) });
          await r.arrayBuffer();
        } catch {}
        times.push({ ms: performance.now() - t0, at: Date.now(), phase });
        await new Promise((r) => setTimeout(r, 10));
      }
    })).then(() => parentPort.postMessage({ times }));
  `;
  const worker = new Worker(code, { eval: true, workerData: { urls } });
  const result = new Promise<Array<{ ms: number; at: number; phase: string }>>((resolve, reject) => {
    worker.once('message', (m: { times: Array<{ ms: number; at: number; phase: string }> }) => resolve(m.times));
    worker.once('error', reject);
  });
  return {
    phase(name: string) {
      worker.postMessage({ phase: name });
    },
    async stop(): Promise<StallReport['probe']> {
      worker.postMessage({ stop: true });
      const times = await result;
      await worker.terminate();
      const sorted = times.map((t) => t.ms).sort((a, b) => a - b);
      const over = times.filter((t) => t.ms > 200);
      return {
        requests: times.length,
        maxMs: Math.round(sorted.at(-1) ?? 0),
        p99Ms: Math.round(sorted[Math.floor(sorted.length * 0.99)] ?? 0),
        stallsOver200ms: over.length,
        stallsNotFromMachineLoad: over.length,
        worst: over
          .slice(0, 10)
          .map((t) => `${Math.round(t.ms)} ms during ${t.phase} at ${new Date(t.at).toISOString()}`),
        stallSpans: over.map((t) => [t.at - t.ms, t.at]),
      };
    },
  };
}

/** The stall classes against a running deployment. Every client address is a 127.0.0.x of its own. */
export async function runStallClasses(c: Deployment, opts: { concurrency: number }): Promise<StallReport> {
  const base = c.apiUrls[0]!;
  const t0 = performance.now();
  const jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 90, g: 120, b: 30 } } })
    .jpeg()
    .toBuffer();
  const register = async (email: string) => {
    const r = (await (
      await fetch(base + '/api/account/register', {
        method: 'POST',
        body: new URLSearchParams({ email, password: 'Hostile-passw0rd', confirm_password: 'Hostile-passw0rd' }),
      })
    ).json()) as Envelope<{ user_token: string }>;
    if (r.code !== 200) throw new Error(`register: ${JSON.stringify(r)}`);
    return r.data.user_token;
  };
  const stamp = Date.now().toString(36);
  const user = await register(`h28-user-${stamp}@example.com`);
  const [pro] = await proAccounts(c, 1);
  const guest = (
    (await (await fetch(base + '/api/v2/guest_token', { method: 'POST' })).json()) as Envelope<{ token: string }>
  ).data.token;
  const nonce = ((await (await fetch(base + '/site-ajax/nonce')).json()) as Envelope<{ nonce: string }>).data.nonce;
  const fields = textFields({ user, guest, pro: pro!, nonce });

  const report: StallReport = {
    classes: {},
    probe: {
      requests: 0,
      maxMs: 0,
      p99Ms: 0,
      stallsOver200ms: 0,
      stallsNotFromMachineLoad: 0,
      worst: [],
      stallSpans: [],
    },
    race: { parallel: 0, evaluated: 0, locked: 0, rightPasswordRefused: false, held: false },
    bursts: {},
    http500: 0,
    unclear: 0,
    durationS: 0,
    serverLoop: { blockedOver200ms: 0, starvedOver200ms: 0, gaps: [] },
    loadAverage1m: 0,
  };
  const watchFrom = loopGaps(c.loopWatchFile, 0).end;
  let addr = 0;
  /** 127.0.0.2 … 127.0.0.254, then again: each request looks like another client to the rate limits */
  const nextAddress = () => `127.0.0.${2 + (addr++ % 253)}`;
  let urlTurn = 0;
  const nextBase = () => c.apiUrls[urlTurn++ % c.apiUrls.length]!;
  const record = (cls: string, label: string, a: Answer | null, err?: unknown) => {
    const k = (report.classes[cls] ??= { sent: 0, answers: {}, http500: 0, unclear: 0, samples: [] });
    k.sent++;
    const key = a ? `${a.status}/${a.body?.code ?? '-'}` : 'no answer';
    k.answers[key] = (k.answers[key] ?? 0) + 1;
    const clear = a !== null && isClear(a);
    if (cls === 'nul-bytes' && a?.status === 200 && a.body?.code === 200 && k.samples.length < 10)
      k.samples.push(`accepted: ${label}`);
    if (a && a.status >= 500) {
      k.http500++;
      report.http500++;
    }
    if (!clear) {
      k.unclear++;
      report.unclear++;
      if (k.samples.length < 10)
        k.samples.push(
          `${label}: ${a ? `HTTP ${a.status} ${a.raw}` : `no answer (${err instanceof Error ? err.message : String(err)})`}`,
        );
    }
  };
  const pool = async <T>(items: T[], n: number, fn: (item: T) => Promise<void>) => {
    let i = 0;
    await Promise.all(
      Array.from({ length: n }, async () => {
        while (i < items.length) await fn(items[i++]!);
      }),
    );
  };

  const slowest: Array<{ ms: number; label: string; at: string }> = [];
  const probe = startProbe(c.apiUrls);
  try {
    // 1. 60 000 repeated characters in every text field (12 000 in GET queries).
    probe.phase('regex-60k');
    const jobs: Array<{ c: FieldCase; name: string; value: string }> = [];
    for (const fc of fields)
      for (const [name, value] of longTexts(fc.as === 'query' ? 12_000 : 60_000)) jobs.push({ c: fc, name, value });
    await pool(jobs, opts.concurrency, async (j) => {
      const { path: p, body } = bodyFor(j.c, j.value, jpeg);
      const label = `${j.c.route} ${j.c.field}=${j.name}`;
      try {
        const t = performance.now();
        const a = await requestFrom(nextBase(), nextAddress(), j.c.method, p, body);
        slowest.push({ ms: Math.round(performance.now() - t), label, at: new Date().toISOString() });
        record('regex-60k', label, a);
      } catch (e) {
        record('regex-60k', label, null, e);
      }
    });

    probe.phase('nul-bytes');
    // 2. A NUL byte in every string field: a 400 10001, never a 500 (PostgreSQL refuses NUL in text).
    const nuls: Array<{ c: FieldCase; value: string }> = [];
    for (const fc of fields)
      for (const value of ['a\u0000b', '\u0000', `${fc.fields[fc.field] ?? ''}\u0000`]) nuls.push({ c: fc, value });
    await pool(nuls, opts.concurrency, async (j) => {
      const { path: p, body } = bodyFor(j.c, j.value, jpeg);
      const label = `${j.c.route} ${j.c.field}=${JSON.stringify(j.value)}`;
      try {
        const a = await requestFrom(nextBase(), nextAddress(), j.c.method, p, body);
        record('nul-bytes', label, a);
      } catch (e) {
        record('nul-bytes', label, null, e);
      }
    });

    probe.phase('login-race');
    // 3. The lockout race: 30 wrong passwords at once from 30 addresses, then the right one.
    const email = `h28-race-${stamp}@example.com`;
    await register(email);
    const parallel = 30;
    const answers = await Promise.all(
      Array.from({ length: parallel }, (_, i) =>
        requestFrom(nextBase(), nextAddress(), 'POST', '/api/account/login', {
          type: 'application/x-www-form-urlencoded',
          data: new URLSearchParams({ email, password: `wrong${i}pass` }).toString(),
        }).then(
          (a) => (record('login-race', 'wrong password', a), a),
          (e: unknown) => (record('login-race', 'wrong password', null, e), null),
        ),
      ),
    );
    const right = await requestFrom(nextBase(), nextAddress(), 'POST', '/api/account/login', {
      type: 'application/x-www-form-urlencoded',
      data: new URLSearchParams({ email, password: 'Hostile-passw0rd' }).toString(),
    });
    record('login-race', 'right password', right);
    const evaluated = answers.filter((a) => a?.body?.code === 3).length;
    const locked = answers.filter((a) => a?.status === 429).length;
    const rightPasswordRefused = right.status === 429;
    report.race = { parallel, evaluated, locked, rightPasswordRefused, held: evaluated <= 10 && rightPasswordRefused };

    probe.phase('anonymous-bursts');
    // 4. Anonymous write bursts from one address: each route's per-address limit must hold (per API process).
    const burstFrom = nextAddress();
    const bursts: Array<[string, number, number, () => { type: string; data: string }]> = [
      [
        '/api/report',
        100,
        60,
        () => ({
          type: 'application/json',
          data: JSON.stringify({ event: 'preview', data: { pad: 'x'.repeat(3900) } }),
        }),
      ],
      [
        '/site-ajax',
        160,
        120,
        () => ({
          type: 'application/x-www-form-urlencoded',
          data: new URLSearchParams({ action: 'credit_upload', nonce, pid: '1' }).toString(),
        }),
      ],
      [
        '/api/cart/abandon',
        30,
        10,
        () => ({
          type: 'application/x-www-form-urlencoded',
          data: new URLSearchParams({ product_id: '606838' }).toString(),
        }),
      ],
      [
        '/api/v2/common/email_status',
        50,
        30,
        () => ({
          type: 'application/x-www-form-urlencoded',
          data: new URLSearchParams({ email: 'someone@example.com' }).toString(),
        }),
      ],
      [
        '/api/contact/send',
        20,
        5,
        () => ({
          type: 'application/x-www-form-urlencoded',
          data: new URLSearchParams({ name: 'n', email: 'a@example.com', message: 'x'.repeat(4000) }).toString(),
        }),
      ],
      [
        '/api/account/register',
        50,
        30,
        () => ({
          type: 'application/x-www-form-urlencoded',
          data: new URLSearchParams({
            email: `b${Math.random().toString(36).slice(2)}@example.com`,
            password: 'passw0rdA1',
            confirm_password: 'passw0rdA1',
          }).toString(),
        }),
      ],
    ];
    for (const [route, perProcess, limit, body] of bursts) {
      // every API process counts on its own: send enough that each must refuse some
      const n = perProcess + limit * (c.apiUrls.length - 1);
      probe.phase(`burst ${route}`);
      let accepted = 0;
      let limited = 0;
      await pool(
        Array.from({ length: n }, (_, i) => i),
        8,
        async () => {
          try {
            const a = await requestFrom(nextBase(), burstFrom, 'POST', route, body());
            record('anonymous-bursts', route, a);
            if (a.status === 429) limited++;
            else if (a.status < 300) accepted++;
          } catch (e) {
            record('anonymous-bursts', route, null, e);
          }
        },
      );
      // the limit is kept per API process (in memory): n processes let n × limit through at most
      const most = limit * c.apiUrls.length;
      report.bursts[route] = { sent: n, accepted, limited, limit: most, held: accepted <= most && limited > 0 };
    }
  } finally {
    report.probe = await probe.stop();
    const { gaps } = loopGaps(c.loopWatchFile, watchFrom);
    // A probe stall that overlaps a gap where an API process waited for a core is the machine's load.
    const starved = gaps
      .filter((g) => g.kind === 'starved')
      .map((g) => [Date.parse(g.at) - g.gapMs, Date.parse(g.at)] as const);
    report.probe.stallsNotFromMachineLoad = report.probe.stallSpans.filter(
      ([a, b]) => !starved.some(([x, y]) => a < y && x < b),
    ).length;
    report.serverLoop = {
      blockedOver200ms: gaps.filter((g) => g.kind === 'blocked').length,
      starvedOver200ms: gaps.filter((g) => g.kind === 'starved').length,
      gaps: gaps
        .slice(0, 20)
        .map(
          (g) =>
            `${g.kind} ${g.gapMs} ms (main thread on a core ${g.cpuMs} ms, waiting for one ${g.waitMs} ms) pid ${g.pid} at ${g.at}`,
        ),
    };
    report.slowestRegexRequests = slowest
      .sort((a, b) => b.ms - a.ms)
      .slice(0, Number(process.env.HOSTILE_SLOWEST ?? 10))
      .map((x) => `${x.ms} ms ${x.label} (done ${x.at})`);
  }
  report.durationS = Math.round((performance.now() - t0) / 100) / 10;
  report.loadAverage1m = Math.round(os.loadavg()[0]! * 10) / 10;
  return report;
}

const num = (v: string | undefined, d: number) => (v && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : d);

/** Whether one mode's run passed: every answer clear, nothing crashed, the anonymous-write limits held, no stall. */
export function passed(r: { uploads: HostileReport; stalls: StallReport }): boolean {
  const u = r.uploads;
  const i = r.stalls;
  return (
    u.unclear === 0 &&
    u.processesCrashed.length === 0 &&
    u.answered === u.inputs &&
    u.spoofedXff.held &&
    i.http500 === 0 &&
    i.unclear === 0 &&
    i.probe.stallsNotFromMachineLoad === 0 &&
    i.serverLoop.blockedOver200ms === 0 &&
    i.race.held &&
    Object.values(i.bursts).every((b) => b.held)
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const opts = {
    count: num(process.env.HOSTILE_COUNT, 1000),
    concurrency: num(process.env.HOSTILE_CONCURRENCY, 16),
    limitMs: num(process.env.HOSTILE_LIMIT_S, 90) * 1000,
  };
  const modes = (process.env.HOSTILE_MODES || 'sqlite,scaleout').split(',').map((m) => m.trim()) as Target['mode'][];
  const hardStop = setTimeout(
    () => {
      console.error('hostile: hard time limit reached');
      process.exit(2);
    },
    modes.length * (opts.limitMs + 240_000),
  );
  hardStop.unref();
  const results: Record<string, { uploads: HostileReport; stalls: StallReport; passed: boolean }> = {};
  for (const mode of modes) {
    console.log(
      mode === 'sqlite'
        ? 'hostile: starting the embedded server (SQLite) …'
        : 'hostile: starting 2 API + 2 worker processes (PostgreSQL + Redis) …',
    );
    const c = mode === 'sqlite' ? await startEmbedded() : await startScaleout();
    try {
      console.log(
        `hostile [${mode}]: ${opts.count} malformed inputs, ${opts.concurrency} at a time, at most ${opts.limitMs / 1000} s`,
      );
      const uploads = await runHostile(c, opts);
      console.log(
        `hostile [${mode}]: stall classes (60 000-character fields, NUL bytes, login race, anonymous bursts) with a stall probe`,
      );
      const stalls = await runStallClasses(c, {
        concurrency: Math.min(opts.concurrency, num(process.env.HOSTILE_STALL_CONCURRENCY, 4)),
      });
      const crashed = [...c.apis, ...c.workers]
        .filter((p) => p.child.exitCode !== null || p.child.signalCode !== null)
        .map((p) => p.name);
      uploads.processesCrashed.push(...crashed.filter((n) => !uploads.processesCrashed.some((x) => x.startsWith(n))));
      results[mode] = { uploads, stalls, passed: false };
      results[mode].passed = passed(results[mode]);
    } finally {
      await c.stop();
    }
  }
  console.log(JSON.stringify(results, null, 2));
  const summary = Object.entries(results).map(([mode, r]) => ({
    mode,
    passed: r.passed,
    inputs: r.uploads.inputs,
    unclear: r.uploads.unclear + r.stalls.unclear,
    http500: r.stalls.http500 + r.uploads.unclearSamples.filter((x) => / HTTP 5\d\d /.test(x)).length,
    stallClassRequests: Object.values(r.stalls.classes).reduce((a, k) => a + k.sent, 0),
    probeRequests: r.stalls.probe.requests,
    probeMaxMs: r.stalls.probe.maxMs,
    stallsOver200ms: r.stalls.probe.stallsOver200ms,
    stallsNotFromMachineLoad: r.stalls.probe.stallsNotFromMachineLoad,
    serverLoopBlockedOver200ms: r.stalls.serverLoop.blockedOver200ms,
    serverLoopStarvedOver200ms: r.stalls.serverLoop.starvedOver200ms,
    loadAverage1m: r.stalls.loadAverage1m,
    race: r.stalls.race,
    bursts: Object.fromEntries(
      Object.entries(r.stalls.bursts).map(([k, b]) => [k, `${b.accepted}/${b.sent} accepted (at most ${b.limit})`]),
    ),
  }));
  console.log('hostile summary:', JSON.stringify(summary, null, 2));
  const out = path.resolve(import.meta.dirname, '..', 'bench', 'results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'hostile.json'), JSON.stringify({ summary, results }, null, 2));
  console.log('written: bench/results/hostile.json');
  process.exit(Object.values(results).every((r) => r.passed) && Object.keys(results).length === modes.length ? 0 : 1);
}
