/**
 * Finding the caller's credentials in a request and resolving them to a Principal: the site's user and
 * guest tokens, and developer API tokens (docs/api.md), which act as their account on the calls of
 * API_TOKEN_ROUTES only.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_TOKEN_RATE_LIMIT_PER_MINUTE } from '../../src/shared/domain/apiPlans.js';
import type { AppContext } from '../context.js';
import { ApiError, refused, unauthorized } from '../errors.js';
import type { ApiPrincipal } from '../services/apiTokens.js';
import type { Principal } from '../services/tokens.js';

const FIELDS = ['user_token', 'guest_token_v2', 'token'] as const;
const COOKIES = ['user_token', 'guest_token'] as const;
/** The field an API token may travel in (query, form or JSON body, multipart field), as VanceAI's API takes it. */
const API_TOKEN_FIELD = 'api_token';

/**
 * The calls an API token may make, as "METHOD route": the synchronous process call, upload (whole,
 * sliced and by URL), start a work, poll it, download its result and the source or preview of one's
 * own works, the licence (credits) and the subscription answer. Everything else — account pages,
 * profile and password, token management, logout, payments — refuses a request that carries an API token with code 6 (HTTP 401), even when
 * it carries a valid session too. This is the only list; docs/api.md names the same calls.
 */
export const API_TOKEN_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/v1/process',
  'POST /web_api/v1/upload',
  'POST /api/job_utils/upload_url',
  'POST /api/v2/upload_slice',
  'POST /api/v2/upload_slice/status',
  'POST /web_api/v1/transform',
  'GET /web_api/v1/progress',
  'GET /web_api/v1/download/',
  'GET /web_api/v1/download',
  'GET /web_api/v1/download/src',
  'GET /web_api/v1/preview',
  'POST /api/v2/license',
  'GET /api/v2/point',
  'GET /api/v2/subscribe_info',
]);

/** The route a request matched, as API_TOKEN_ROUTES writes it (the matched pattern, not the raw URL). */
const routeKey = (req: FastifyRequest) => `${req.method} ${req.routeOptions.url ?? ''}`;

/**
 * Whether the matched route needs no credentials: its schema's security is empty or lists the empty
 * requirement (anonymous callers are answered too), or it has none (the document itself, /api/health).
 * A key sent to such a call is not read at all: a client that sends X-Api-Key on every request is
 * answered as without it (remove.bg's clients do), and an invalid key there is no error.
 */
function isPublicRoute(req: FastifyRequest): boolean {
  const security = (req.routeOptions.schema as { security?: unknown } | undefined)?.security;
  if (!Array.isArray(security)) return true;
  return security.length === 0 || security.some((s) => !!s && typeof s === 'object' && Object.keys(s).length === 0);
}

/** A call that needs credentials and got none at all: 401, told apart from a key or token that is not valid. */
const missingCredentials = () => refused({ reason: 'missingCredentials' });
/** An API key that is not (or no longer) a key, on a call an API key may make. */
const invalidApiKey = () => refused({ reason: 'invalidApiKey' });

function pick(src: unknown, names: readonly string[]): string | undefined {
  if (!src || typeof src !== 'object' || Buffer.isBuffer(src)) return undefined;
  for (const n of names) {
    const v = (src as Record<string, unknown>)[n];
    if (typeof v === 'string' && v) return v;
  }
  return undefined;
}

/** The header an API token may travel in, as remove.bg's API takes it (beside `Authorization: Bearer`). */
const API_KEY_HEADER = 'x-api-key';

/** `Authorization: Bearer <token>`, then `X-Api-Key: <token>`, then an api_token field (query, parsed body). */
function apiCredentialOf(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (typeof h === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
    if (m) return m[1];
  }
  const key = req.headers[API_KEY_HEADER];
  if (typeof key === 'string' && key.trim()) return key.trim();
  return pick(req.query, [API_TOKEN_FIELD]) ?? pick(req.body, [API_TOKEN_FIELD]);
}

/** The principal an admitted API token made for this request (set by admitApiToken). */
const API_PRINCIPALS = new WeakMap<FastifyRequest, ApiPrincipal>();
/** The token's rate-limit window as this request left it: written as X-RateLimit-* headers on the answer. */
interface RateWindow {
  limit: number;
  remaining: number;
  /** seconds until the window starts again */
  reset: number;
}
const RATE_WINDOWS = new WeakMap<FastifyRequest, RateWindow>();
type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
const LIMITERS = new WeakMap<AppContext, Limiter>();

/** Whether this request acts through an API token. */
export const isApiRequest = (req: FastifyRequest) => API_PRINCIPALS.has(req);

/**
 * The API token's checks, in order: a call it may make (else code 6), a live token of an entitled
 * account (else code 6), its rate limit (per token, API_TOKEN_RATE_LIMIT_PER_MINUTE; else HTTP 429),
 * then its use is recorded. The principal is kept for the request.
 */
async function admitApiToken(req: FastifyRequest, ctx: AppContext, token: string): Promise<ApiPrincipal> {
  const known = API_PRINCIPALS.get(req);
  if (known) return known;
  if (!API_TOKEN_ROUTES.has(routeKey(req))) throw unauthorized();
  const p = await ctx.services.apiTokens.resolve(token).catch((e: unknown) => {
    throw e instanceof ApiError && e.httpStatus === 401 ? invalidApiKey() : e;
  });
  const limiter = LIMITERS.get(ctx);
  if (limiter) {
    API_PRINCIPALS.set(req, p);
    const r = await limiter(req);
    if (!r.isAllowed) RATE_WINDOWS.set(req, { limit: r.max, remaining: r.remaining, reset: r.ttlInSeconds });
    if (!r.isAllowed && r.isExceeded) {
      API_PRINCIPALS.delete(req);
      throw refused({ reason: 'rateLimited', max: r.max, retry_after: r.ttlInSeconds });
    }
  }
  await ctx.services.apiTokens.recordUse(p.apiTokenHash);
  API_PRINCIPALS.set(req, p);
  return p;
}

/**
 * Installs the API token check on every route (a preHandler, after the body is parsed): a request
 * that names an API token in its Authorization header, query or body is admitted or refused here,
 * before its handler runs. Multipart bodies are read by their handlers: their api_token field is
 * checked in principalOfFields.
 */
export function registerApiTokenGate(app: FastifyInstance, ctx: AppContext): void {
  // The app registers @fastify/rate-limit (app.ts); a bare instance that only lists routes (the docs script) has none.
  if (app.hasDecorator('createRateLimit')) {
    LIMITERS.set(
      ctx,
      app.createRateLimit({
        max: API_TOKEN_RATE_LIMIT_PER_MINUTE,
        timeWindow: 60_000,
        keyGenerator: (req) => `api-token:${API_PRINCIPALS.get(req)?.apiTokenHash ?? ''}`,
      }),
    );
  }
  app.addHook('preHandler', async (req) => {
    // A path or method that no call has answers 404/405 whatever the credentials (app.ts).
    if (req.is404 || isPublicRoute(req)) return;
    const token = apiCredentialOf(req);
    if (token !== undefined) await admitApiToken(req, ctx, token);
  });
  // Every answer to a call an API token made says where its rate limit stands (a refusal too),
  // whichever way the token came (header, field, multipart field read by the handler).
  app.addHook('onSend', async (req, reply, payload) => {
    const w = RATE_WINDOWS.get(req);
    if (w) {
      reply
        .header('x-ratelimit-limit', w.limit)
        .header('x-ratelimit-remaining', w.remaining)
        .header('x-ratelimit-reset', w.reset);
      if (reply.statusCode === 429) reply.header('retry-after', w.reset);
    }
    return payload;
  });
}

/** Body first, then query string, then cookies (links such as <img src> and downloads carry cookies). */
export function tokenOf(req: FastifyRequest, names: readonly string[] = FIELDS): string | undefined {
  return pick(req.body, names) ?? pick(req.query, names) ?? pick(req.cookies, COOKIES);
}

/**
 * The caller: the API token's account when the request carries one (admitted here if a check that runs
 * before the gate asks first, e.g. a route's authenticate step), else the site token's.
 */
export function principalOf(req: FastifyRequest, ctx: AppContext, names?: readonly string[]): Promise<Principal> {
  const api = API_PRINCIPALS.get(req);
  if (api) return Promise.resolve(api);
  const credential = isPublicRoute(req) ? undefined : apiCredentialOf(req);
  if (credential !== undefined) return admitApiToken(req, ctx, credential);
  const token = tokenOf(req, names);
  if (token === undefined && API_TOKEN_ROUTES.has(routeKey(req))) return Promise.reject(missingCredentials());
  return ctx.services.tokens.resolve(token);
}

/**
 * The caller of a multipart request from its fields (read before any file part is buffered): an
 * api_token field is checked like a header's token; else a site token field, else tokenOf.
 */
export function principalOfFields(
  req: FastifyRequest,
  ctx: AppContext,
  fields: Record<string, string>,
): Promise<Principal> {
  const api = API_PRINCIPALS.get(req);
  if (api) return Promise.resolve(api);
  if (fields[API_TOKEN_FIELD]) return admitApiToken(req, ctx, fields[API_TOKEN_FIELD]);
  const token = FIELDS.map((n) => fields[n]).find((v) => !!v) ?? tokenOf(req);
  if (token === undefined && API_TOKEN_ROUTES.has(routeKey(req))) return Promise.reject(missingCredentials());
  return ctx.services.tokens.resolve(token);
}
