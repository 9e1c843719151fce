// The API docs page lists the server's real routes: the committed data must match what the server
// registers now, and every listed route must exist on the real app (buildApp, as served).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/testing/server.js';
import { API_DOCS_FILE, collectApiDocs, collectServerFacts, fieldsOf, renderApiDocs, SERVER_FACTS_FILE, type ApiDocs } from './api-docs.js';

describe('API docs data (scripts/api-docs.ts)', () => {
  let srv: TestServer;
  let committed: ApiDocs;
  beforeAll(async () => {
    srv = await startTestServer();
    committed = JSON.parse(fs.readFileSync(API_DOCS_FILE, 'utf8')) as ApiDocs;
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('is up to date with the route table (run npm run api-docs after changing a route)', async () => {
    expect(renderApiDocs(await collectApiDocs())).toBe(fs.readFileSync(API_DOCS_FILE, 'utf8'));
  });

  it('states the server-only lifetimes as the server has them', () => {
    expect(renderApiDocs(collectServerFacts())).toBe(fs.readFileSync(SERVER_FACTS_FILE, 'utf8'));
    expect(collectServerFacts().userTokenDays).toBeGreaterThan(0);
  });

  it('lists routes that the served app really has, the progress route among them', () => {
    expect(committed.routes.length).toBeGreaterThan(40);
    for (const r of committed.routes) expect(srv.app.hasRoute({ method: r.method as 'GET', url: r.path }), `${r.method} ${r.path}`).toBe(true);
    expect(committed.routes).toContainEqual(expect.objectContaining({ method: 'GET', path: '/web_api/v1/progress', group: 'processing', fields: ['trans_id'] }));
    expect(srv.app.hasRoute({ method: 'GET', url: '/web_api/v1/no-such-route' })).toBe(false);
  });

  it('every group has its module text', () => {
    for (const g of committed.groups) expect(g.about.length, g.group).toBeGreaterThan(10);
    expect(new Set(committed.routes.map((r) => r.group))).toEqual(new Set(committed.groups.map((g) => g.group)));
  });

  it('reads the fields a handler uses', () => {
    expect(fieldsOf('async (req) => { const q = await fieldsOf(req); return ok(x(str(q.trans_id), tokenOf(req, ["user_token", \'token\']))); }')).toEqual(['token', 'trans_id', 'user_token']);
  });
});
