/** Helpers for the data-API integration tests (uploads, accounts, workflows, site ajax…): real HTTP only. */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { startTestServer, type TestServer } from '../support/server.js';
import { testModeOverrides } from '../support/modes.js';
import type { Config } from '../../server/config.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
export const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

export interface Envelope<T = any> {
  code: number;
  msg: string;
  data: T;
}
export interface Answer<T = any> {
  status: number;
  body: Envelope<T>;
  headers: Headers;
}

async function answer<T>(r: Response): Promise<Answer<T>> {
  return { status: r.status, body: (await r.json()) as Envelope<T>, headers: r.headers };
}

/**
 * A test server in the suite's mode (PIXMILL_TEST_MODE=scaleout → its own PostgreSQL database),
 * without the job runner: these tests exercise the data API only.
 */
export async function startApiServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const mode = await testModeOverrides();
  const srv = await startTestServer({ ...mode.overrides, runJobs: false, ...overrides });
  const stop = srv.stop.bind(srv);
  srv.stop = async (opts) => {
    await stop(opts);
    await mode.cleanup();
  };
  return srv;
}

/** A caller: a token, and optionally the cookies a browser would send (session). */
export class Caller {
  cookies = new Map<string, string>();
  constructor(
    readonly srv: TestServer,
    public token = '',
  ) {}

  static async guest(srv: TestServer): Promise<Caller> {
    const { token } = await srv.ctx.services.tokens.createGuest();
    return new Caller(srv, token);
  }

  /** Registers (and is thereby logged in) a new user; optionally puts it on a plan. */
  static async user(srv: TestServer, email: string, plan?: 'basic' | 'pro'): Promise<Caller & { accountId: number }> {
    const c = new Caller(srv) as Caller & { accountId: number };
    const r = await c.form(
      '/api/account/register',
      { email, password: 'passw0rdA1', confirm_password: 'passw0rdA1' },
      false,
    );
    if (r.body.code !== 200) throw new Error(`register failed: ${JSON.stringify(r.body)}`);
    c.token = r.body.data.user_token;
    c.accountId = r.body.data.id;
    if (plan) await srv.ctx.services.accounts.setPlan(c.accountId, plan);
    return c;
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  private keep(r: Response) {
    for (const c of r.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const k = pair!.slice(0, i);
      const v = pair!.slice(i + 1);
      if (v === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) this.cookies.delete(k);
      else this.cookies.set(k, v);
    }
  }

  url(p: string, q: Record<string, string> = {}): string {
    const u = new URL(p, this.srv.url);
    for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
    return u.href;
  }

  async fetch(p: string, init: RequestInit = {}, q: Record<string, string> = {}): Promise<Response> {
    const r = await fetch(this.url(p, q), {
      ...init,
      headers: { ...this.cookieHeader(), ...((init.headers as Record<string, string>) ?? {}) },
    });
    this.keep(r);
    return r;
  }

  async get<T = any>(p: string, q: Record<string, string> = {}, withToken = true): Promise<Answer<T>> {
    return answer<T>(await this.fetch(p, {}, withToken && this.token ? { user_token: this.token, ...q } : q));
  }

  /** Form-encoded POST like the client's axios calls. */
  async form<T = any>(p: string, form: Record<string, string> = {}, withToken = true): Promise<Answer<T>> {
    const body = new URLSearchParams(withToken && this.token ? { user_token: this.token, ...form } : form);
    return answer<T>(await this.fetch(p, { method: 'POST', body }));
  }

  async json<T = any>(p: string, body: unknown): Promise<Answer<T>> {
    const b = { user_token: this.token, ...(body as object) };
    return answer<T>(
      await this.fetch(p, { method: 'POST', body: JSON.stringify(b), headers: { 'content-type': 'application/json' } }),
    );
  }

  async multipart<T = any>(
    p: string,
    fields: Record<string, string>,
    files: Record<string, { data: Buffer; name: string }>,
  ): Promise<Answer<T>> {
    const fd = new FormData();
    if (this.token) fd.set('user_token', this.token);
    for (const [k, v] of Object.entries(fields)) fd.set(k, v);
    for (const [k, f] of Object.entries(files)) fd.set(k, new Blob([f.data]), f.name);
    return answer<T>(await this.fetch(p, { method: 'POST', body: fd }));
  }

  upload<T = any>(data: Buffer, name: string, job = 'enlarge', thumbnail?: Buffer): Promise<Answer<T>> {
    return this.multipart<T>(
      '/web_api/v1/upload',
      { job },
      { file: { data, name }, ...(thumbnail ? { thumbnail: { data: thumbnail, name: 'thumb.png' } } : {}) },
    );
  }

  async bytes(
    p: string,
    q: Record<string, string> = {},
  ): Promise<{ status: number; type: string | null; data: Buffer }> {
    const r = await this.fetch(p, {}, this.token ? { user_token: this.token, ...q } : q);
    return { status: r.status, type: r.headers.get('content-type'), data: Buffer.from(await r.arrayBuffer()) };
  }
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A well-formed PNG header declaring w×h RGB pixels, with a tiny IDAT: a decompression bomb's shape. */
export function craftedPng(w: number, h: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(4096))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A fresh free account's API key, as a developer gets one: register, then api_token/get (two calls over HTTP). */
export async function freeApiKey(serverUrl: string, tag: string): Promise<string> {
  const reg = await fetch(`${serverUrl}/api/account/register`, {
    method: 'POST',
    body: new URLSearchParams({
      email: `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`,
      password: 'passw0rdA1',
      confirm_password: 'passw0rdA1',
    }),
  });
  const userToken = ((await reg.json()) as { data: { user_token: string } }).data.user_token;
  const r = await fetch(`${serverUrl}/api/v2/api_token/get`, {
    method: 'POST',
    body: new URLSearchParams({ user_token: userToken }),
  });
  return ((await r.json()) as { data: { api_token: string } }).data.api_token;
}
