// @vitest-environment jsdom
// The user store against the real server: a first visit gets a guest token and the guest's plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../tests/support/server.js';
import { startApiServer } from '../../tests/support/testServer.js';
import { getCookie } from '../lib/cookies.js';
import { useUser } from './user.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startApiServer();
});
afterAll(() => srv?.stop());

describe('user store', () => {
  it('bootstrap: guest token cookie, guest level, 3 credits mirrored in the cookie', async () => {
    await useUser.getState().bootstrap();
    const s = useUser.getState();
    expect(s).toMatchObject({ ready: true, logged: false, level: 'guest', credits: 3 });
    expect(getCookie('guest_token')).toBe(s.token);
    expect(getCookie('user_token')).toBe(s.token);
    expect(getCookie('guest_credits')).toBe('3');
  });

  it('a second bootstrap keeps the same guest', async () => {
    const first = useUser.getState().token;
    await useUser.getState().bootstrap();
    expect(useUser.getState().token).toBe(first);
  });

  it('spec §4: code 10012 sets credits to 0 and the level to expired; the server restores the truth', async () => {
    useUser.getState().markExhausted();
    expect(useUser.getState()).toMatchObject({ credits: 0, level: 'expired' });
    await useUser.getState().refreshCredits();
    expect(useUser.getState()).toMatchObject({ credits: 3, level: 'guest' });
  });
});
