/**
 * The API docs, generated from the route schemas (npm run api-docs): builds the server's routes on a
 * throw-away embedded context with the OpenAPI generator (@fastify/swagger) registered as the server
 * registers it, and writes the document to src/pages/content/openapi.json — the copy the /api-docs/ page
 * shows, offline too; the server serves the same document at /api-docs/openapi.json. Also writes
 * src/pages/content/serverFacts.json, the server-only lifetimes the privacy page states, and the
 * TypeScript client's generated half, clients/typescript/pixmill.gen.ts (scripts/api-client.ts).
 * scripts/api-docs.test.ts fails when either file no longer matches the server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { loadConfig } from '../server/config.js';
import { createContext } from '../server/bootstrap.js';
import { registerOpenApi } from '../server/app.js';
import { registerRoutes } from '../server/http/routes/index.js';
import { ENLARGE_MAX_SIDE } from '../server/engines/enlarge.js';
import { BUNDLE_TTL_MS } from '../server/services/downloads.js';
import { LOGIN_LOCK_MAX_MS, LOGIN_LOCK_MS, LOGIN_WINDOW_MS } from '../server/services/loginThrottle.js';
import { SESSION_TTL_MS } from '../server/services/sessions.js';
import {
  GUEST_TOKEN_TTL_MS,
  TOKEN_REFRESH_MS,
  TOKENS_PER_SESSION,
  USER_TOKEN_TTL_MS,
} from '../server/services/tokens.js';
import type { AppContext } from '../server/context.js';
import { renderRouteTable, ROUTE_TABLE_FILE } from './route-table.js';
import { CLIENT_FILE, renderClient } from './api-client.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OPENAPI_FILE = path.join(root, 'src', 'pages', 'content', 'openapi.json');
export const SERVER_FACTS_FILE = path.join(root, 'src', 'pages', 'content', 'serverFacts.json');

export interface RegisteredRoute {
  method: string;
  url: string;
}

export interface ApiDocs {
  /** the OpenAPI document */
  document: Record<string, unknown> & { paths: Record<string, Record<string, unknown>> };
  /** every route registered (HEAD twins of GET routes left out) */
  routes: RegisteredRoute[];
}

/** The OpenAPI path of a Fastify URL (`/models/:name` → `/models/{name}`). */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/**
 * The OpenAPI document of the routes `register` adds to a bare Fastify app set up as the server's
 * (registerOpenApi), and the routes it registered.
 */
export async function documentOf(register: (app: FastifyInstance) => Promise<void>): Promise<ApiDocs> {
  const app = Fastify({ logger: false });
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (r) => {
    for (const method of (Array.isArray(r.method) ? r.method : [r.method]).filter((m) => m !== 'HEAD'))
      routes.push({ method, url: r.url });
  });
  try {
    await app.register(rateLimit, { global: false });
    await registerOpenApi(app);
    await register(app);
    await app.ready();
    return { document: app.swagger() as unknown as ApiDocs['document'], routes };
  } finally {
    await app.close();
  }
}

/** The document of the server's routes, built on a throw-away embedded context. */
export async function collectApiDocs(): Promise<ApiDocs> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-api-docs-'));
  const config = loadConfig(
    {},
    {
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      dataDir,
      databaseUrl: undefined,
      redisUrl: undefined,
      paymentProvider: 'local',
      runJobs: false,
    },
  );
  let ctx: AppContext | undefined;
  try {
    ctx = await createContext(config);
    const c = ctx;
    return await documentOf((app) => registerRoutes(app, c));
  } finally {
    await ctx?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The server-only numbers the privacy page and the terms state (the client cannot import server
 * modules): token, session and bulk-download lifetimes and the login lock, from their one place.
 */
export function collectServerFacts() {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const MINUTE = 60_000;
  return {
    userTokenDays: USER_TOKEN_TTL_MS / DAY,
    guestTokenDays: GUEST_TOKEN_TTL_MS / DAY,
    sessionDays: SESSION_TTL_MS / DAY,
    expiryMovesAtMostEveryHours: TOKEN_REFRESH_MS / HOUR,
    tokensPerSession: TOKENS_PER_SESSION,
    bulkDownloadHours: BUNDLE_TTL_MS / HOUR,
    loginWindowMinutes: LOGIN_WINDOW_MS / MINUTE,
    loginLockMinutes: LOGIN_LOCK_MS / MINUTE,
    loginLockMaxHours: LOGIN_LOCK_MAX_MS / HOUR,
    enlargeMaxSidePx: ENLARGE_MAX_SIDE,
  };
}

export function renderJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const docs = await collectApiDocs();
  fs.mkdirSync(path.dirname(OPENAPI_FILE), { recursive: true });
  fs.writeFileSync(OPENAPI_FILE, renderJson(docs.document));
  fs.writeFileSync(SERVER_FACTS_FILE, renderJson(collectServerFacts()));
  fs.writeFileSync(ROUTE_TABLE_FILE, renderRouteTable());
  // the TypeScript client's types and call table follow the document (scripts/api-client.ts)
  fs.mkdirSync(path.dirname(CLIENT_FILE), { recursive: true });
  fs.writeFileSync(CLIENT_FILE, renderClient(docs.document));
  console.log(
    `api-docs: ${Object.keys(docs.document.paths).length} paths of ${docs.routes.length} routes → ${path.relative(root, OPENAPI_FILE)}`,
  );
  process.exit(0);
}
