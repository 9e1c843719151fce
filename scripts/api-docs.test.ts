// The OpenAPI document is generated from the route schemas: it must be a valid OpenAPI 3 document,
// hold every route the server registers with its inputs, follow a schema change by itself, and the
// committed copy the /api-docs/ page shows must be the one the running server serves.
import fs from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../tests/support/server.js';
import { route } from '../server/http/schemaRoute.js';
import { ok } from '../server/http/envelope.js';
import { Thumbsup } from '../src/shared/schemas/history.js';
import {
  collectApiDocs,
  collectServerFacts,
  documentOf,
  OPENAPI_FILE,
  openApiPath,
  renderJson,
  SERVER_FACTS_FILE,
  type ApiDocs,
} from './api-docs.js';

type Operation = {
  tags?: string[];
  parameters?: { name: string }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  security?: unknown[];
};

describe('OpenAPI document (scripts/api-docs.ts)', () => {
  let srv: TestServer;
  let docs: ApiDocs;
  beforeAll(async () => {
    srv = await startTestServer();
    docs = await collectApiDocs();
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const v = new Validator();
    const res = await v.validate(structuredClone(docs.document));
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(v.version).toBe('3.1');
  });

  it('holds every route the server registers, each with a tag, its security and its inputs', () => {
    expect(docs.routes.length).toBeGreaterThanOrEqual(64);
    for (const r of docs.routes) {
      const op = docs.document.paths[openApiPath(r.url)]?.[r.method.toLowerCase()] as Operation | undefined;
      expect(op, `${r.method} ${r.url}`).toBeDefined();
      expect(op!.tags?.length, `${r.method} ${r.url} tag`).toBe(1);
      expect(Array.isArray(op!.security), `${r.method} ${r.url} security`).toBe(true);
    }
    const progress = docs.document.paths['/web_api/v1/progress']?.get as Operation;
    expect(progress.parameters?.map((p) => p.name)).toContain('trans_id');
  });

  it('is the document the server serves, and the committed copy the docs page shows (run npm run api-docs after changing a schema)', async () => {
    const served = await fetch(`${srv.url}/api-docs/openapi.json`);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual(docs.document);
    expect(fs.readFileSync(OPENAPI_FILE, 'utf8')).toBe(renderJson(docs.document));
  });

  it('follows a schema change with no hand-edited docs', async () => {
    const changed = {
      ...Thumbsup,
      fields: Type.Object({
        ...Thumbsup.fields?.properties,
        comment: Type.Optional(Type.String({ maxLength: 200, description: 'why' })),
      }),
    };
    const body = (d: ApiDocs) =>
      (d.document.paths['/api/v2/thumbsup']!.post as Operation).requestBody!.content['application/json']!.schema
        .properties!;
    const before = await documentOf(async (app) => route(app, Thumbsup, async () => ok(null)));
    const after = await documentOf(async (app) => route(app, changed, async () => ok(null)));
    expect(Object.keys(body(before))).toEqual(['trans_id', 'thumbsup']);
    expect(body(after).comment).toEqual({ type: 'string', maxLength: 200, description: 'why' });
  });

  it('states the server-only lifetimes as the server has them', () => {
    expect(renderJson(collectServerFacts())).toBe(fs.readFileSync(SERVER_FACTS_FILE, 'utf8'));
    expect(collectServerFacts().userTokenDays).toBeGreaterThan(0);
  });
});
