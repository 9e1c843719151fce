/**
 * Uploads held to their limits before their bytes are read (issue 48): the plan's size from Content-Length
 * once the token is known, `Expect: 100-continue` refused at once when the length is over, and slices that
 * must each be exactly the slice size but the last, so an upload is ready only when its bytes are whole.
 * In the suite's mode (embedded; PostgreSQL in the scale-out pass).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_SIZE_BYTES } from '../../src/shared/domain/constants.js';
import { PLAN_LIMITS } from '../../src/shared/domain/plans.js';
import { Caller, startApiServer, fixture } from './api-helpers.js';
import type { TestServer } from '../support/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startApiServer();
});
afterAll(async () => srv?.stop());

/** A socket that sends `head` and answers the first response it reads (headers and the body so far). */
function firstAnswer(head: string | Buffer): Promise<{ text: string; socket: net.Socket }> {
  const u = new URL(srv.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname, () => socket.write(head));
    let out = '';
    socket.on('data', (d) => {
      out += d.toString('latin1');
      const end = out.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = /content-length: (\d+)/i.exec(out.slice(0, end));
      if (out.startsWith('HTTP/1.1 100') || !length || out.length >= end + 4 + Number(length[1]))
        resolve({ text: out, socket });
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ text: out, socket }));
  });
}

const statusOf = (text: string) => Number(text.split(' ')[1]);
const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));

describe('upload size from Content-Length, before the file is read', () => {
  it("a guest's 47 MB upload is refused 413 once its token and job are in, before the rest of the file is sent", async () => {
    const guest = await Caller.guest(srv);
    const boundary = 'pixmillboundary';
    const fields =
      `--${boundary}\r\nContent-Disposition: form-data; name="user_token"\r\n\r\n${guest.token}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="job"\r\n\r\ncompress\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const length = 47 * 1024 * 1024;
    const head =
      `POST /web_api/v1/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
      `Content-Length: ${length}\r\n\r\n${fields}`;
    // only the fields, the file part's header and its first kilobyte are sent: the answer must come without the rest
    const { text, socket } = await firstAnswer(
      Buffer.concat([Buffer.from(head), fixture('rocket.jpg').subarray(0, 1024)]),
    );
    socket.destroy();
    expect(statusOf(text)).toBe(413);
    expect(bodyOf(text).data).toMatchObject({ reason: 'fileTooLarge', max: PLAN_LIMITS.guest.compressMaxBytes });
  });

  it('Expect: 100-continue over the largest upload is answered 413 at once, not 100 Continue', async () => {
    const { text, socket } = await firstAnswer(
      `POST /web_api/v1/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n` +
        `Content-Length: ${99 * 1024 * 1024}\r\nExpect: 100-continue\r\n\r\n`,
    );
    socket.destroy();
    expect(statusOf(text)).toBe(413);
    expect(bodyOf(text).data).toMatchObject({ reason: 'bodyTooLarge' });
    // a slice is held to one slice, any other call to the body limit
    const slice = await firstAnswer(
      `POST /api/v2/upload_slice HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n` +
        `Content-Length: ${2 * CHUNK_SIZE_BYTES}\r\nExpect: 100-continue\r\n\r\n`,
    );
    slice.socket.destroy();
    expect(statusOf(slice.text)).toBe(413);
    const login = await firstAnswer(
      `POST /api/account/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
        `Content-Length: ${5 * 1024 * 1024}\r\nExpect: 100-continue\r\n\r\n`,
    );
    login.socket.destroy();
    expect(statusOf(login.text)).toBe(413);
  });

  it("Expect: 100-continue with the token in the query is held to the caller's plan", async () => {
    const guest = await Caller.guest(srv);
    const over = await firstAnswer(
      `POST /web_api/v1/upload?user_token=${guest.token} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n` +
        `Content-Length: ${20 * 1024 * 1024}\r\nExpect: 100-continue\r\n\r\n`,
    );
    over.socket.destroy();
    expect(statusOf(over.text)).toBe(413);
    expect(bodyOf(over.text).data).toMatchObject({ reason: 'fileTooLarge', max: PLAN_LIMITS.guest.compressMaxBytes });
    // the same length from a Pro account (50 MB for compress) is invited
    const pro = await Caller.user(srv, 'expect-pro@example.com', 'pro');
    const invited = await firstAnswer(
      `POST /web_api/v1/upload?user_token=${pro.token} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n` +
        `Content-Length: ${20 * 1024 * 1024}\r\nExpect: 100-continue\r\n\r\n`,
    );
    invited.socket.destroy();
    expect(invited.text.startsWith('HTTP/1.1 100 Continue')).toBe(true);
  });

  it('Expect: 100-continue within the limit is invited and the upload goes through', async () => {
    const guest = await Caller.guest(srv);
    const boundary = 'pixmillboundary';
    const file = fixture('rocket.jpg');
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="user_token"\r\n\r\n${guest.token}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="job"\r\n\r\ncompress\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="rocket.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const { text, socket } = await firstAnswer(
      `POST /web_api/v1/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    expect(text.startsWith('HTTP/1.1 100 Continue')).toBe(true);
    const answer = await new Promise<string>((resolve) => {
      let out = '';
      socket.on('data', (d) => (out += d.toString('utf8')));
      socket.on('close', () => resolve(out));
      socket.write(body);
    });
    expect(statusOf(answer)).toBe(200);
    expect(bodyOf(answer).data.data).toMatchObject({ w: 640, h: 427 });
  });
});

describe('slices', () => {
  const slice = (caller: Caller, n: number, total: number, data: Buffer, uid?: string) => {
    const fd = new FormData();
    fd.set('user_token', caller.token);
    fd.set('job', 'compress');
    fd.set('blob_num', String(n));
    fd.set('total_blob_num', String(total));
    if (uid) fd.set('uid', uid);
    fd.set('file', new Blob([data]), 'big.jpg');
    return caller.fetch('/api/v2/upload_slice', { method: 'POST', body: fd }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { code: number; data: any },
    }));
  };

  it('every slice but the last must be exactly the slice size; the upload is ready only when whole', async () => {
    const pro = await Caller.user(srv, 'slices@example.com', 'pro');
    const image = fixture('elephants-5640x3172.jpg');
    const parts: Buffer[] = [];
    for (let o = 0; o < image.length; o += CHUNK_SIZE_BYTES) parts.push(image.subarray(o, o + CHUNK_SIZE_BYTES));
    const total = parts.length;
    expect(total).toBeGreaterThanOrEqual(3);
    const first = await slice(pro, 1, total, parts[0]!);
    expect(first.body.code).toBe(200);
    const uid = first.body.data.uid as string;
    // a short slice in the middle (100 bytes as slice 2) is refused and not kept
    const short = await slice(pro, 2, total, parts[1]!.subarray(0, 100), uid);
    expect(short.body.data).toMatchObject({
      reason: 'sliceSize',
      refusal: 'sliceSize',
      mb: CHUNK_SIZE_BYTES / 2 ** 20,
    });
    // the right slices then complete it, byte for byte
    for (let n = 2; n <= total; n++) {
      const r = await slice(pro, n, total, parts[n - 1]!, uid);
      expect(r.body.code).toBe(200);
      if (n === total) expect(r.body.data).toMatchObject({ done: true, w: 5640, h: 3172 });
    }
    const row = await srv.ctx.db.selectFrom('uploads').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow();
    expect([row.status, row.filesize]).toEqual(['ready', image.length]);
  });
});
