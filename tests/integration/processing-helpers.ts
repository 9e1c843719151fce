/** HTTP helpers for the processing integration tests: real requests against startTestServer(). */
import { afterEach } from 'vitest';
import { createTestDatabase, detectScaleout, type TestDatabase } from '../support/modes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import type { Envelope } from './api-helpers.js';

export { fixture, type Envelope } from './api-helpers.js';

export class Client {
  constructor(
    readonly srv: TestServer,
    readonly token: string,
  ) {}

  static async guest(srv: TestServer): Promise<Client> {
    const r = await fetch(`${srv.url}/api/v2/guest_token`, { method: 'POST' });
    const body = (await r.json()) as Envelope<{ token: string }>;
    if (body.code !== 200) throw new Error(`guest_token failed: ${JSON.stringify(body)}`);
    return new Client(srv, body.data.token);
  }

  url(p: string, q: Record<string, string> = {}): string {
    const u = new URL(p, this.srv.url);
    for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
    return u.href;
  }

  async get<T = any>(p: string, q: Record<string, string> = {}): Promise<{ status: number; body: Envelope<T> }> {
    const r = await fetch(this.url(p, { user_token: this.token, ...q }));
    return { status: r.status, body: (await r.json()) as Envelope<T> };
  }

  /** Form-encoded POST, like the client's axios calls. */
  async post<T = any>(p: string, form: Record<string, string> = {}): Promise<{ status: number; body: Envelope<T> }> {
    const r = await fetch(this.url(p), {
      method: 'POST',
      body: new URLSearchParams({ user_token: this.token, ...form }),
    });
    return { status: r.status, body: (await r.json()) as Envelope<T> };
  }

  async raw(p: string, q: Record<string, string>, init: RequestInit = {}): Promise<Response> {
    return fetch(this.url(p, q), init);
  }

  async upload(bytes: Buffer, filename: string, job = 'compress'): Promise<string> {
    const fd = new FormData();
    fd.set('user_token', this.token);
    fd.set('job', job);
    fd.set('file', new Blob([bytes]), filename);
    const r = await fetch(this.url('/web_api/v1/upload'), { method: 'POST', body: fd });
    const body = (await r.json()) as Envelope<{ data: { uid: string } }>;
    if (body.code !== 200) throw new Error(`upload failed: ${JSON.stringify(body)}`);
    return body.data.data.uid;
  }

  async transform(uid: string, jconfig: unknown, extra: Record<string, string> = {}) {
    return this.post<{ trans_id: string }>('/web_api/v1/transform', {
      uid,
      jconfig: JSON.stringify(jconfig),
      ...extra,
    });
  }

  /** Polls progress like the client (which polls every 2 s; every 20 ms here, so a test ends as soon as its work does) until finish or fatal. */
  async waitEnd(
    transId: string,
  ): Promise<Envelope<{ status: string; progress: number; step: number; steps: number; error?: string }>> {
    for (;;) {
      const { body } = await this.get('/web_api/v1/progress', { trans_id: transId });
      if (body.code !== 200 || body.data.status !== 'progress') return body;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async license() {
    return (
      await this.post<{ max_num: number; used_num: number; compress_max: number; compress_used: number }>(
        '/api/v2/license',
        { guest_token_v2: this.token },
      )
    ).body.data;
  }
}

export const COMPRESS = { job: 'compress', config: { module: 'compress', module_params: { quality: 50 } } };

/** Entries of a zip written without compression (as the bulk download does): name → bytes. */
export function storedZipEntries(zip: Buffer): Map<string, Buffer> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory');
    const method = zip.readUInt16LE(p + 10);
    const size = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    if (method !== 0) throw new Error(`entry ${name} is compressed`);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    out.set(name, zip.subarray(dataStart, dataStart + size));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/**
 * The servers of one processing test file, stopped (and their PostgreSQL databases dropped) after each test.
 * PIXMILL_PROCESSING_DB=postgres runs the file on PostgreSQL (a fresh database per data dir; a server started
 * on the same dataDir reopens the same one), with the jobs-table queue.
 */
export async function processingServers(): Promise<{
  server(overrides?: Parameters<typeof startTestServer>[0]): Promise<TestServer>;
  /** a server the test stopped itself (a restart keeps its data dir and database) */
  forget(s: TestServer): void;
}> {
  const onPg = process.env.PIXMILL_PROCESSING_DB === 'postgres';
  const pgAvail = onPg ? await detectScaleout() : undefined;
  if (onPg && !pgAvail?.available)
    throw new Error(`PIXMILL_PROCESSING_DB=postgres but PostgreSQL does not answer: ${pgAvail?.reason}`);
  const databases = new Map<string, TestDatabase>();
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.stop();
    for (const db of databases.values()) await db.drop();
    databases.clear();
  });
  const forget = (s: TestServer) => void servers.splice(servers.indexOf(s), 1);
  const server = async (overrides: Parameters<typeof startTestServer>[0] = {}) => {
    if (onPg) {
      const reuse = overrides.dataDir ? databases.get(overrides.dataDir) : undefined;
      const db = reuse ?? (await createTestDatabase(pgAvail!.pgUrl));
      const s = await startTestServer({ ...overrides, databaseUrl: db.url });
      databases.set(s.dataDir, db);
      servers.push(s);
      return s;
    }
    const s = await startTestServer(overrides);
    servers.push(s);
    return s;
  };
  return { server, forget };
}
