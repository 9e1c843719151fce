/**
 * For the client's unit tests (jsdom): the real server on a free port, and the axios clients
 * pointed at it over Node's http adapter (jsdom's XHR would apply browser CORS to a test origin).
 */
import { startTestServer, type TestServer } from './server.js';
import { api, hideApi } from '../../src/api/client.js';

export async function startApiServer(): Promise<TestServer> {
  const srv = await startTestServer();
  for (const client of [api, hideApi]) {
    client.defaults.baseURL = srv.url;
    client.defaults.adapter = 'http';
  }
  return srv;
}

/** The workspace keeps its token in the user_token cookie (spec §7). */
export function useToken(token: string | undefined): void {
  document.cookie = token
    ? `user_token=${encodeURIComponent(token)}; path=/`
    : 'user_token=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
}
