import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ guestTokenRateLimit: 5 });
});
afterAll(() => srv?.stop());

const post = async (path: string, body: Record<string, string> = {}) => {
  const res = await fetch(srv.url + path, { method: 'POST', body: new URLSearchParams(body) });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: any } };
};

describe('tokens and licence', () => {
  it('POST /api/v2/guest_token gives a token whose licence is a guest with 3 credits', async () => {
    const { body } = await post('/api/v2/guest_token');
    expect(body.code).toBe(200);
    expect(body.data.token).toMatch(/^g_[A-Za-z0-9_-]{20,}$/);
    const lic = await post('/api/v2/license', { guest_token_v2: body.data.token });
    expect(lic.body.code).toBe(200);
    expect(lic.body.data).toMatchObject({
      user_level: 'guest',
      max_num: 3,
      used_num: 0,
      pid: 0,
      is_expired: false,
      left_credits: 3,
      low_credit_warning: false,
    });
    const pt = await fetch(`${srv.url}/api/v2/point?guest_token_v2=${body.data.token}`).then((r) => r.json());
    expect(pt).toMatchObject({ code: 200, data: { max_num: 3, used_num: 0 } });
  });

  it('an unknown or malformed token is refused with code 6 and the server keeps serving', async () => {
    for (const t of ['g_doesnotexistdoesnotexist', '../../etc/passwd', '']) {
      const r = await post('/api/v2/license', { guest_token_v2: t });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe(6);
    }
    expect((await fetch(srv.url + '/api/health')).status).toBe(200);
  });

  it('guest_token creation is rate limited per client', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) codes.push((await post('/api/v2/guest_token')).status);
    expect(codes).toContain(429);
    const limited = await post('/api/v2/guest_token');
    expect(limited.body).toMatchObject({ code: 10001 });
  });

  it('bind_token requires a logged-in user token', async () => {
    const a =
      (await post('/api/v2/guest_token')).body.data?.token ?? (await srv.ctx.services.tokens.createGuest()).token;
    const b = (await srv.ctx.services.tokens.createGuest()).token;
    const r = await post('/api/v2/bind_token', { token: a, guest_token_v2: b });
    expect(r.body.code).toBe(10001);
  });
});
