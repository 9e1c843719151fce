// @vitest-environment jsdom
// The user store against the real server: a first visit gets a guest token and the guest's plan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../tests/support/server.js';
import { startApiServer } from '../../tests/support/testServer.js';
import { api, hideApi } from '../api/client.js';
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

describe('offline reload (issue 47 point 3)', () => {
  it('keeps the last known account, marked offline, when the server cannot be reached; the server restores it', async () => {
    await useUser.getState().bootstrap();
    const known = useUser.getState();
    expect(known.offline).toBe(false);
    // A reload with no network: the page's state is gone, the server does not answer.
    useUser.setState({ ready: false, logged: false, level: 'guest', credits: 0, creditStanding: 'empty' });
    // Nothing listens on port 9: every call fails without an answer, as with no network.
    for (const client of [api, hideApi]) client.defaults.baseURL = 'http://127.0.0.1:9';
    try {
      await expect(useUser.getState().bootstrap()).rejects.toBeTruthy();
    } finally {
      for (const client of [api, hideApi]) client.defaults.baseURL = srv.url;
    }
    expect(useUser.getState()).toMatchObject({
      ready: true,
      offline: true,
      logged: known.logged,
      level: known.level,
      credits: known.credits,
    });
    await useUser.getState().bootstrap();
    expect(useUser.getState()).toMatchObject({ offline: false, credits: known.credits });
  });

  it('nothing known: no account is made up', async () => {
    localStorage.removeItem('pixmill.lastAccount');
    const { lastAccount } = await import('./user.js');
    expect(lastAccount()).toBeUndefined();
    localStorage.setItem('pixmill.lastAccount', '{"logged":"yes"}');
    expect(lastAccount()).toBeUndefined();
  });
});
