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
 * Options (env): HOSTILE_COUNT (1000), HOSTILE_CONCURRENCY (16), HOSTILE_LIMIT_S (90).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import sharp from 'sharp';
import type { Cluster } from '../server/testing/modesCluster.js';
import { rssOfCluster, startLoadCluster, type Envelope } from './loadtest.js';

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
    if (!z.write(rows === 64 ? block : block.subarray(0, (side + 1) * rows))) await new Promise((r) => z.once('drain', r));
  }
  z.end();
  await done;
  return Buffer.concat([PNG_SIG, ihdr(side, side), pngChunk('IDAT', Buffer.concat(parts)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** JPEG with its frame header's dimensions rewritten. */
function patchJpegDims(jpeg: Buffer, w: number, h: number): Buffer {
  const out = Buffer.from(jpeg);
  for (let i = 2; i < out.length - 9; ) {
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
const isClear = (a: Answer) => a.status < 500 && a.body !== null && typeof a.body.code === 'number' && typeof a.body.msg === 'string' && a.body.msg.length > 0;

const BOUNDARY = 'hostileBoundary7MA4YWxkTrZu0gW';
function multipartBody(fields: Record<string, string>, file?: { name: string; data: Buffer }): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: image/jpeg\r\n\r\n`), file.data, Buffer.from('\r\n'));
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
  async post(path: string, body: FormData | URLSearchParams | string | Buffer, headers: Record<string, string> = {}, base = this.base()): Promise<Answer> {
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
  slice(token: string | null, f: { file: Buffer | null; blob_num: string; total: string; uid?: string; name?: string }, base?: string): Promise<Answer> {
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
  const jpeg = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 200, g: 80, b: 20 } } }).jpeg({ quality: 90 }).toBuffer();
  const png = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 20, g: 80, b: 200 } } }).png().toBuffer();
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
      return { kind: 'truncated-jpeg', refuse: true, send: (h) => h.upload(h.token(cut), jpeg.subarray(0, cut), 'cut.jpg') };
    },
    () => {
      const cut = int(8, png.length - 13);
      return { kind: 'truncated-png', refuse: true, send: (h) => h.upload(h.token(cut), png.subarray(0, cut), 'cut.png') };
    },
    () => {
      const m = MAGICS[int(0, MAGICS.length - 1)]!;
      const body = Buffer.concat([m, rand(int(0, 2000))]);
      return { kind: 'wrong-magic', refuse: true, send: (h) => h.upload(h.token(body.length), body, rnd() < 0.5 ? 'evil.jpg' : 'evil.png') };
    },
    () => ({ kind: 'random-bytes', refuse: true, send: (h) => h.upload(h.token(1), rand(int(1, 4096)), 'noise.jpg') }),
    () => ({ kind: 'zero-bytes', refuse: true, send: (h) => h.upload(h.token(2), Buffer.alloc(0), 'empty.jpg') }),
    () => {
      const w = int(30_000, 0x7fffffff);
      const body = Buffer.concat([PNG_SIG, ihdr(w, int(30_000, 0x7fffffff), 2), pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(64))), pngChunk('IEND', Buffer.alloc(0))]);
      return { kind: 'huge-dims-png', refuse: true, send: (h) => h.upload(h.token(w), body, 'huge.png') };
    },
    () => {
      const body = patchJpegDims(jpeg, int(20_000, 65_535), int(20_000, 65_535));
      return { kind: 'huge-dims-jpeg', refuse: true, send: (h) => h.upload(h.token(3), body, 'huge.jpg') };
    },
    // 64 MP for a job under the guest's 2.8 MP limit, 400 MP for compress (whose own limit is by file size and 100 MP)
    () => ({ kind: 'png-bomb-64mp-enlarge', refuse: true, send: (h) => h.upload(h.token(4), bombs[0]!, 'bomb.png', 'enlarge') }),
    () => ({ kind: 'png-bomb-400mp-compress', refuse: true, send: (h) => h.upload(h.token(4), bombs[1]!, 'bomb.png', 'compress') }),
    () => {
      const body = Buffer.from(jpeg);
      const at = int(200, body.length - 10);
      rand(8).copy(body, at);
      // A few garbled bytes inside entropy-coded data may still decode: either answer is clear.
      return { kind: 'corrupt-middle-jpeg', refuse: false, send: (h) => h.upload(h.token(at), body, 'garbled.jpg') };
    },
    () => ({ kind: 'oversize', refuse: true, send: (h) => h.upload(h.token(5), oversize, 'big.jpg') }),
    () => ({ kind: 'no-file', refuse: true, send: (h) => h.upload(h.token(6), null, 'none.jpg') }),
    () => ({ kind: 'not-multipart', refuse: true, send: (h) => h.post('/web_api/v1/upload', JSON.stringify({ file: 'AAAA' }), { 'content-type': 'application/json' }) }),
    () => ({ kind: 'bad-token', refuse: true, send: (h) => h.upload(rnd() < 0.5 ? 'g_' + 'A'.repeat(30) : '../../etc/passwd', jpeg, 'ok.jpg') }),
    () => ({ kind: 'no-token', refuse: true, send: (h) => h.upload(null, jpeg, 'ok.jpg') }),
    () => ({ kind: 'bad-job', refuse: true, send: (h) => h.upload(h.token(7), jpeg, 'ok.jpg', '<script>alert(1)</script>') }),
    () => ({ kind: 'hostile-filename', refuse: false, send: (h) => h.upload(h.token(8), jpeg, '../../etc/passwd\u0000.jpg') }),
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
      return { kind: 'slice-bad-numbers', refuse: true, send: (h) => h.slice(h.proToken(9), { file: jpeg, blob_num: b, total: t }) };
    },
    () => ({
      kind: 'slice-duplicate',
      refuse: false,
      async send(h) {
        const tok = h.proToken(10);
        const half = Math.ceil(jpeg.length / 2);
        const first = await h.slice(tok, { file: jpeg.subarray(0, half), blob_num: '1', total: '2' });
        const uid = first.body?.data?.uid as string | undefined;
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
        const first = await h.slice(tok, { file: jpeg.subarray(0, 100), blob_num: '1', total: '3' });
        const uid = first.body?.data?.uid as string | undefined;
        if (!uid) return first;
        return h.slice(tok, { file: jpeg.subarray(100), blob_num: '2', total: '2', uid });
      },
    }),
    () => ({
      kind: 'slice-mismatched-token',
      refuse: true,
      async send(h) {
        const first = await h.slice(h.proToken(12), { file: jpeg.subarray(0, 100), blob_num: '1', total: '2' });
        const uid = first.body?.data?.uid as string | undefined;
        if (!uid) return first;
        // another account continues someone else's upload
        return h.slice(h.proToken(13), { file: jpeg.subarray(100), blob_num: '2', total: '2', uid });
      },
    }),
    () => ({ kind: 'slice-unknown-uid', refuse: true, send: (h) => h.slice(h.proToken(14), { file: jpeg, blob_num: '2', total: '2', uid: '00000000-0000-4000-8000-000000000000' }) }),
    () => ({ kind: 'slice-empty', refuse: true, send: (h) => h.slice(h.proToken(15), { file: Buffer.alloc(0), blob_num: '1', total: '1' }) }),
    () => {
      const m = MAGICS[int(0, MAGICS.length - 1)]!;
      return { kind: 'slice-wrong-magic', refuse: true, send: (h) => h.slice(h.proToken(16), { file: Buffer.concat([m, rand(300)]), blob_num: '1', total: '1' }) };
    },
    () => ({
      kind: 'slice-concurrent-last',
      refuse: false,
      async send(h) {
        // 6 identical last slices at once (a client retrying on a flaky network): each answer clear, one file.
        const tok = h.proToken(17);
        const half = Math.ceil(jpeg.length / 2);
        const first = await h.slice(tok, { file: jpeg.subarray(0, half), blob_num: '1', total: '2' });
        const uid = first.body?.data?.uid as string | undefined;
        if (!uid) return first;
        const base = h.base();
        const lasts = await Promise.all(Array.from({ length: 6 }, (_, i) => h.slice(tok, { file: jpeg.subarray(half), blob_num: '2', total: '2', uid }, i % 2 ? h.base() : base)));
        return lasts.find((a) => !isClear(a)) ?? lasts.find((a) => a.body?.code !== 200) ?? lasts[5]!;
      },
    }),
    () => ({
      kind: 'multipart-no-boundary',
      refuse: true,
      send: (h) => h.post('/web_api/v1/upload', multipartBody({ user_token: h.token(18), job: 'compress' }, { name: 'a.jpg', data: jpeg }), { 'content-type': 'multipart/form-data' }),
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
          return h.post(route, full.subarray(0, 1 + Math.floor(at * (full.length - 5))), { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` });
        },
      };
    },
    () => {
      const garbage = rand(int(0, 3000));
      return { kind: 'multipart-garbage', refuse: true, send: (h) => h.post('/web_api/v1/upload', garbage, { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }) };
    },
    () => {
      const n = int(21, 200);
      return {
        kind: 'multipart-too-many-fields',
        refuse: true,
        send: (h) => {
          const fields: Record<string, string> = { user_token: h.token(20), job: 'compress' };
          for (let i = 0; i < n; i++) fields[`f${i}`] = 'x';
          return h.post('/web_api/v1/upload', multipartBody(fields, { name: 'a.jpg', data: jpeg }), { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` });
        },
      };
    },
    () => {
      const depth = int(1_000, 200_000);
      const deep = rnd() < 0.5 ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
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
            ? h.post('/web_api/v1/transform', `{"user_token":"${tok}","uid":"${uid}","jconfig":${deep}}`, { 'content-type': 'application/json' })
            : h.post('/web_api/v1/transform', new URLSearchParams({ user_token: tok, uid, jconfig: deep }));
        },
      };
    },
    () => {
      const paths = ['/%', '/api/v2/point%', '/web_api/v1/%zz', '/%E0%A4%A', '/api/%c0%af'];
      const p = paths[int(0, paths.length - 1)]!;
      return { kind: 'bad-url', refuse: true, send: (h) => h.raw(`GET ${p}?user_token=${h.token(22)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`) };
    },
    () => {
      const ip = `${int(1, 223)}.${int(0, 255)}.${int(0, 255)}.${int(1, 254)}`;
      return {
        kind: 'spoofed-xff-login',
        refuse: true,
        send: (h) => h.post('/api/account/login', new URLSearchParams({ email: `nobody${int(0, 1e6)}@example.com`, password: 'wrong-passw0rd' }), { 'x-forwarded-for': ip, 'x-real-ip': ip }),
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
        send: (h) => h.post(p, new URLSearchParams(f), { origin: 'https://evil.example', cookie: `user_token=${h.proToken(23)}; guest_token=${h.token(23)}` }),
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
export async function proAccounts(c: Cluster, n: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) {
    const email = `hostile-pro-${Date.now().toString(36)}-${i}@example.com`;
    const res = await fetch(c.apiUrls[0] + '/api/account/register', { method: 'POST', body: new URLSearchParams({ email, password: 'Hostile-passw0rd', confirm_password: 'Hostile-passw0rd' }) });
    const r = (await res.json()) as Envelope<{ user_token: string }>;
    if (r.code !== 200) throw new Error(`register: ${JSON.stringify(r)}`);
    const admin = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, 'admin.ts'), 'grant', email, 'pro'], { env: c.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    admin.stdout.on('data', (d: Buffer) => (out += d));
    admin.stderr.on('data', (d: Buffer) => (out += d));
    const code = await new Promise<number | null>((resolve) => admin.once('exit', resolve));
    if (code !== 0 || !/"level":\s*"pro"/.test(out)) throw new Error(`admin grant ${email} pro failed (${code}): ${out.slice(0, 300)}`);
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
    const res = await fetch(base + '/api/account/login', { method: 'POST', body: new URLSearchParams({ email: `xff${i}@example.com`, password: 'wrong-passw0rd' }), headers: { 'x-forwarded-for': ip } });
    await res.arrayBuffer();
    if (res.status === 429) limited++;
  }
  return { sent, limited, held: limited > 0 };
}

export async function runHostile(c: Cluster, opts: { count: number; concurrency: number; limitMs: number }): Promise<HostileReport> {
  const inputs = await generateInputs(opts.count);
  const tokens: string[] = [];
  for (let i = 0; i < 20; i++) {
    const r = (await (await fetch(c.apiUrls[i % c.apiUrls.length] + '/api/v2/guest_token', { method: 'POST' })).json()) as Envelope<{ token: string }>;
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
        if (report.unclearSamples.length < 20) report.unclearSamples.push(`${input.kind}: no answer (${e instanceof Error ? e.message : String(e)})`);
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
  report.processesCrashed = procs.filter((p) => p.child.exitCode !== null || p.child.signalCode !== null).map((p) => `${p.name}: ${p.log().split('\n').slice(-3).join(' | ')}`);
  report.processesAlive = procs.length - report.processesCrashed.length;
  const health = await Promise.all(c.apiUrls.map((u) => fetch(u + '/api/health').then((r) => r.ok, () => false)));
  report.healthyAfter = health.every(Boolean);
  report.rssAfterMiB = rssOfCluster(c);
  return report;
}

const num = (v: string | undefined, d: number) => (v && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : d);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const opts = { count: num(process.env.HOSTILE_COUNT, 1000), concurrency: num(process.env.HOSTILE_CONCURRENCY, 16), limitMs: num(process.env.HOSTILE_LIMIT_S, 90) * 1000 };
  const hardStop = setTimeout(() => {
    console.error('hostile: hard time limit reached');
    process.exit(2);
  }, opts.limitMs + 90_000);
  hardStop.unref();
  console.log('hostile: starting 2 API + 2 worker processes …');
  const c = await startLoadCluster();
  let report: HostileReport;
  try {
    console.log(`hostile: ${opts.count} malformed inputs, ${opts.concurrency} at a time, at most ${opts.limitMs / 1000} s`);
    report = await runHostile(c, opts);
  } finally {
    await c.stop();
  }
  console.log(JSON.stringify(report, null, 2));
  const out = path.resolve(import.meta.dirname, '..', 'bench', 'results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'hostile.json'), JSON.stringify(report, null, 2));
  console.log('written: bench/results/hostile.json');
  process.exit(report.unclear === 0 && report.processesCrashed.length === 0 && report.answered === report.inputs && report.spoofedXff.held ? 0 : 1);
}
