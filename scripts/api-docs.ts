/**
 * API docs data, generated from the server's real route table (npm run api-docs): builds the
 * server's routes on a throw-away embedded context, records every route Fastify registers (method,
 * path, rate limit), the route module that registered it (its opening doc comment is the group's
 * text) and the request fields its handler reads (from the module's source), and writes src/pages/content/apiRoutes.json for
 * the API docs page; and src/pages/content/serverFacts.json, the server-only lifetimes the privacy
 * page states. scripts/api-docs.test.ts fails when either file no longer matches the server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type RouteOptions } from 'fastify';
import { loadConfig } from '../server/config.js';
import { createContext } from '../server/bootstrap.js';
import { registerRoutes } from '../server/http/routes/index.js';
import { ENLARGE_MAX_SIDE } from '../server/engines/enlarge.js';
import { BUNDLE_TTL_MS } from '../server/services/downloads.js';
import { LOGIN_LOCK_MAX_MS, LOGIN_LOCK_MS, LOGIN_WINDOW_MS } from '../server/services/loginThrottle.js';
import { SESSION_TTL_MS } from '../server/services/sessions.js';
import { GUEST_TOKEN_TTL_MS, TOKEN_REFRESH_MS, TOKENS_PER_SESSION, USER_TOKEN_TTL_MS } from '../server/services/tokens.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const API_DOCS_FILE = path.join(root, 'src', 'pages', 'content', 'apiRoutes.json');
export const SERVER_FACTS_FILE = path.join(root, 'src', 'pages', 'content', 'serverFacts.json');
const ROUTES_DIR = path.join(root, 'server', 'http', 'routes');

export interface ApiRoute {
  method: string;
  path: string;
  /** the route module's file name without extension (tokens, uploads, …) */
  group: string;
  /** request fields the handler reads (body, query or form), as found in its code */
  fields: string[];
  /** requests a minute per client, when the route has its own limit */
  perMinute?: number;
}

export interface ApiGroup {
  group: string;
  /** the route module's opening doc comment */
  about: string;
}

export interface ApiDocs {
  groups: ApiGroup[];
  routes: ApiRoute[];
}

/** The route module (file under server/http/routes) and the line that registers a route right now, from the call stack. */
function registeringSite(): { group: string; line: number } {
  for (const l of (new Error().stack ?? '').split('\n')) {
    const m = /server[\\/]http[\\/]routes[\\/](\w+)\.ts:(\d+)/.exec(l);
    if (m && m[1] !== 'index') return { group: m[1], line: Number(m[2]) };
  }
  return { group: 'index', line: 0 };
}

/** The original source of a route: from its registration line to the next registration in the same module. */
function routeSource(group: string, line: number): string {
  const file = path.join(ROUTES_DIR, `${group}.ts`);
  if (!line || !fs.existsSync(file)) return '';
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const out: string[] = [];
  for (let i = line - 1; i < lines.length; i++) {
    if (i > line - 1 && /^\s*app\.(get|post|put|delete|patch|route|all)\(/.test(lines[i])) break;
    out.push(lines[i]);
  }
  return out.join('\n');
}

/** Field names the handler reads: `q.name`, `b.token`, `str(body.uid)`, `tokenOf(req, ['guest_token_v2'])`. */
export function fieldsOf(handlerSource: string): string[] {
  const found = new Set<string>();
  for (const m of handlerSource.matchAll(/\b(?:q|b|body|query|f|fields|params)\.([a-z][a-z0-9_]*)\b/g)) found.add(m[1]);
  for (const m of handlerSource.matchAll(/(?:tokenOf|principalOf)\([^)]*?\[([^\]]*)\]/g)) for (const t of m[1].matchAll(/['"]([a-z0-9_]+)['"]/g)) found.add(t[1]);
  return [...found].sort();
}

function perMinuteOf(r: RouteOptions): number | undefined {
  const rl = (r.config as { rateLimit?: { max?: unknown; timeWindow?: unknown } } | undefined)?.rateLimit;
  if (!rl || typeof rl.max !== 'number') return undefined;
  return rl.timeWindow === '1 minute' || rl.timeWindow === 60_000 ? rl.max : undefined;
}

/** Routes registered by routes/index.ts itself (the health check) have no module text of their own. */
const INDEX_ABOUT = 'Service health: answers while the server is up.';

/** The module's opening doc comment, without the internal references to spec sections. */
function moduleAbout(group: string): string {
  const file = path.join(ROUTES_DIR, `${group}.ts`);
  if (group === 'index' || !fs.existsSync(file)) return INDEX_ABOUT;
  const m = /^\/\*\*([\s\S]*?)\*\//.exec(fs.readFileSync(file, 'utf8'));
  const text = m ? m[1].split('\n').map((l) => l.replace(/^\s*\*\s?/, '').trim()).filter(Boolean).join(' ') : '';
  return text
    .replace(/\s*\((?:plans of )?spec §[^)]*\)/g, '')
    .replace(/ of spec §\d+/g, '')
    .replace(/\s*\(spec §\d+ "([^"]+)"\)/g, '')
    .replace(/spec §\d+ /g, '')
    .trim();
}

/** Every route the server registers, in registration order (HEAD twins of GET routes left out). */
export async function collectApiDocs(): Promise<ApiDocs> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-api-docs-'));
  const config = loadConfig({}, { port: 0, host: '127.0.0.1', logLevel: 'silent', dataDir, databaseUrl: undefined, redisUrl: undefined, paymentProvider: 'local', runJobs: false });
  const ctx = await createContext(config);
  const app = Fastify({ logger: false });
  const routes: ApiRoute[] = [];
  app.addHook('onRoute', (r) => {
    const methods = (Array.isArray(r.method) ? r.method : [r.method]).filter((m) => m !== 'HEAD');
    const { group, line } = registeringSite();
    const fields = fieldsOf(routeSource(group, line));
    for (const method of methods) routes.push({ method, path: r.url, group, fields, ...(perMinuteOf(r) ? { perMinute: perMinuteOf(r) } : {}) });
  });
  try {
    await registerRoutes(app, ctx);
    await app.ready();
  } finally {
    await app.close();
    await ctx.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const groups = [...new Set(routes.map((r) => r.group))].map((group) => ({ group, about: moduleAbout(group) }));
  return { groups, routes };
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

export function renderApiDocs(docs: ApiDocs | ReturnType<typeof collectServerFacts>): string {
  return JSON.stringify(docs, null, 2) + '\n';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const docs = await collectApiDocs();
  fs.mkdirSync(path.dirname(API_DOCS_FILE), { recursive: true });
  fs.writeFileSync(API_DOCS_FILE, renderApiDocs(docs));
  fs.writeFileSync(SERVER_FACTS_FILE, renderApiDocs(collectServerFacts()));
  console.log(`api-docs: ${docs.routes.length} routes in ${docs.groups.length} groups → ${path.relative(root, API_DOCS_FILE)}`);
  process.exit(0);
}
