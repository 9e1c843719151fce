/** The Fastify application: plugins, the envelope error handler, API routes and the PWA. */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyError, type FastifyReply } from 'fastify';
import type { DestinationStream } from 'pino';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { rateLimitStore } from './http/rateLimitStore.js';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { ErrorEnvelope, SECURITY_SCHEMES, TAGS } from '../src/shared/schemas/common.js';
import { JobConfigSchema } from '../src/shared/schemas/jobConfig.js';
import { CHUNK_SIZE_BYTES } from '../src/shared/domain/constants.js';
import { PLAN_LIMITS } from '../src/shared/domain/plans.js';
import type { AppContext } from './context.js';
import type { TrustProxy } from './config.js';
import { notFound, refused, type ApiError } from './errors.js';
import { replyIfUnavailable } from './http/dbHealth.js';
import { registerRoutes } from './http/routes/index.js';
import { loggerOptions } from './http/logging.js';
import { registerClientAddress } from './http/requestAddress.js';
import { registerExpectContinue } from './http/expectContinue.js';
import { recordRouteMethods } from './http/methods.js';
import { startLoopWatch } from './http/loopWatch.js';
import { jsonDepthWithin, refuseNul } from './http/params.js';
import { readRefusedBody, requestRefusal } from './http/requestErrors.js';
import { BARE_ERROR_HEADERS, registerCrossSiteCheck, registerSecurityHeaders } from './http/security.js';
import { validatorCompiler } from './http/validation.js';

/** Build outputs no client may fetch (checked on the decoded path: the static server decodes `%2Emap` too). */
const NEVER_SERVED = /\.map$/i;

function decodedPath(url: string): string {
  const raw = url.split('?', 1)[0]!;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The largest file any plan may send in one request (compress limit), plus multipart slack. */
const MAX_UPLOAD_BYTES = Math.max(...Object.values(PLAN_LIMITS).map((l) => l.compressMaxBytes), CHUNK_SIZE_BYTES);

/** A refusal as its answer: the envelope {code, msg, data} (data.reason, data.field) with its HTTP status. */
const answer = (reply: FastifyReply, e: ApiError) =>
  reply.status(e.httpStatus).send({ code: e.code, msg: e.message, data: e.data });

/**
 * Fastify's form of TRUST_PROXY. A hop count n trusts the n nearest hops, whoever they are (Fastify's
 * own numeric option now trusts nobody), so it is given as a function; address lists go as they are.
 */
function trustProxyOption(t: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof t === 'number' ? (_address, hop) => hop < t : t;
}

/** The OpenAPI document's head: every route adds its operation from its schema (src/shared/schemas/). */
const OPENAPI_INFO = {
  openapi: '3.1.0',
  info: {
    title: 'Pixmill API',
    version: '1',
    description:
      'Every call answers the envelope {code, msg, data}: code 200 on success, else an error code with its English text and, in data.reason, a stable reason code (data.field names the field at fault). Fields may be sent as query parameters, a urlencoded or JSON body, or multipart form fields; a field that fails its schema answers code 10001 naming the field. An API token travels as `X-Api-Key`, `Authorization: Bearer` or the `api_token` field; its calls answer X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset. POST /api/v1/process answers the processed image in one call (docs/api.md).',
    license: { name: 'AGPL-3.0-or-later', identifier: 'AGPL-3.0-or-later' },
  },
  // Relative: the document is served by the API it describes (a client joins its paths to the host it fetched it from).
  servers: [{ url: '/', description: 'the server that serves this document' }],
  tags: TAGS.map((t) => ({ ...t })),
  components: {
    securitySchemes: structuredClone(SECURITY_SCHEMES) as unknown as Record<string, never>,
    schemas: structuredClone({ ErrorEnvelope, JobConfig: JobConfigSchema }) as unknown as Record<string, never>,
  },
};

/** The document's generator: @fastify/swagger reading every route's schema as it is registered. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  // Routes without a tag (the static files of the PWA) are not API calls: left out of the document.
  await app.register(swagger, { openapi: OPENAPI_INFO, hideUntagged: true });
  // Route schemas check request fields (validation.ts); answers are written as they are, the schemas
  // of answers are for the document and the client's types only.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

export interface BuildOptions {
  /** where the request log goes (tests read it); stdout otherwise */
  logStream?: DestinationStream;
}

export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(ctx.config.logLevel, opts.logStream),
    bodyLimit: 1024 * 1024,
    // A request must arrive whole within this time (Node's default 0 let a trickled body hold a
    // connection for minutes). Uploads are sent in 5 MB slices; a whole-file upload of the
    // largest plan limit (50 MB) needs ~3.4 Mbit/s to fit.
    requestTimeout: ctx.config.requestTimeoutMs,
    // Off unless TRUST_PROXY names the proxies: otherwise any client could pick its own address
    // (and thereby its own rate-limit bucket) with X-Forwarded-For.
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    // Answers written before routing (a URL that does not decode, e.g. `GET /%`) use the envelope too.
    frameworkErrors: (err, _req, reply) => {
      reply.headers(BARE_ERROR_HEADERS);
      return answer(reply, requestRefusal(err) ?? refused({ reason: 'badRequest' }));
    },
    // Requests that are not HTTP at all never reach Fastify: answer them with the envelope, then close.
    clientErrorHandler: (err, socket) => {
      if ((err as NodeJS.ErrnoException).code === 'ECONNRESET' || socket.destroyed) return;
      const code = (err as NodeJS.ErrnoException).code;
      const [status, text, reason] =
        code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? ([408, 'Request Timeout', 'requestTimeout'] as const)
          : code === 'HPE_HEADER_OVERFLOW'
            ? ([431, 'Request Header Fields Too Large', 'headersTooLarge'] as const)
            : ([400, 'Bad Request', 'badRequest'] as const);
      const refusal = refused({ reason }, status);
      const body = JSON.stringify({ code: refusal.code, msg: refusal.message, data: refusal.data });
      const headers = Object.entries(BARE_ERROR_HEADERS)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      if (socket.writable)
        socket.write(
          `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}Connection: close\r\n\r\n${body}`,
        );
      socket.destroy(err);
    },
  });

  // Node checks request timeouts every 30 s by default: often enough for 120 s, not for a short one.
  // It enforces requestTimeout only when headersTimeout (60 s) is not longer than it.
  (app.server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = Math.min(
    30_000,
    Math.max(250, ctx.config.requestTimeoutMs / 4),
  );
  app.server.headersTimeout = Math.min(app.server.headersTimeout, ctx.config.requestTimeoutMs);

  // JSON bodies: Fastify's own parser (prototype-poisoning checks kept) behind a depth limit, so no
  // route's JSON.stringify or recursive walk meets a 100 000-deep body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (!jsonDepthWithin(body as string)) return done(refused({ reason: 'jsonTooDeep' }), undefined);
    return parseJson(req, body as string, done);
  });

  await registerSecurityHeaders(app);
  registerCrossSiteCheck(app, ctx.config);
  registerClientAddress(app);
  registerExpectContinue(app, MAX_UPLOAD_BYTES, app.initialConfig.bodyLimit ?? 1024 * 1024, async (token) => {
    const { limits } = await ctx.services.tokens.resolve(token);
    return Math.max(limits.maxFileBytes, limits.compressMaxBytes);
  });
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 20, fieldSize: 256 * 1024, parts: 24 },
  });
  // the counts live in this process, or in Redis in a scale-out deployment (one limit across all API processes)
  const limits = rateLimitStore(ctx.config, (err) =>
    app.log.warn({ err: { message: err.message } }, 'rate limits: redis error'),
  );
  await app.register(rateLimit, limits.options);
  await registerOpenApi(app);
  // A NUL byte in any parameter is a malformed request (10001), before a route or the database sees it.
  app.addHook('preValidation', async (req) => refuseNul(req));

  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    // database or queue unreachable → 503 'Service temporarily unavailable' (clients retry; nothing lost)
    if (replyIfUnavailable(err, req, reply)) return reply;
    // Our own refusals, and malformed or oversize requests (each with its own status and text).
    const refusal = requestRefusal(err);
    // Node reads the rest of the body and keeps the connection once Fastify's 'close' is gone (a
    // request that asked for 'close' keeps it: that client is told the connection ends).
    if (reply.raw.shouldKeepAlive && readRefusedBody(err, req.headers['content-length']))
      reply.removeHeader('connection');
    if (refusal)
      return reply.status(refusal.httpStatus).send({ code: refusal.code, msg: refusal.message, data: refusal.data });
    req.log.error(err);
    return reply.status(500).send({ code: 500, msg: 'Something went wrong, please try again.', data: null });
  });

  const methodsOf = recordRouteMethods(app);
  await registerRoutes(app, ctx);

  /** A build output named with its content hash (assets/ and lazy locales/), possibly its precompressed copy. */
  const HASHED_ASSET = /[\\/](assets|locales)[\\/][^\\/]+-[\w-]{8}\.\w+(\.(br|gz))?$/;

  // Never served: source maps (they name build paths and hold the sources).
  app.addHook('onRequest', async (req, reply) => {
    if (NEVER_SERVED.test(decodedPath(req.url))) return answer(reply, notFound());
  });

  // The built PWA; any other non-API GET falls back to index.html (client-side routes, language prefixes).
  const clientDir = ctx.config.clientDir;
  const index = path.join(clientDir, 'index.html');
  if (fs.existsSync(index)) {
    // Hashed build assets never change: cached for a year. Everything else (index.html, sw.js, the
    // manifest, samples) is revalidated. .br/.gz written at build time are sent when accepted.
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, file) =>
        res.header('cache-control', HASHED_ASSET.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const isApi = /^\/(api|web_api|site-ajax)(\/|$)/.test(req.url);
    if (req.method === 'GET' && !isApi && fs.existsSync(index)) {
      return reply.type('text/html').header('cache-control', 'no-cache').send(fs.createReadStream(index));
    }
    // A path a call has, asked with another method: 405 and the methods it takes (whatever the credentials).
    const allowed = methodsOf(decodedPath(req.url));
    if (allowed.length) {
      reply.header('allow', allowed.join(', '));
      throw refused({ reason: 'methodNotAllowed' });
    }
    throw refused({ reason: 'routeNotFound' });
  });

  // Diagnosis only (LOOP_WATCH_MS, LOOP_WATCH_FILE): gaps of the event loop, see loopWatch.ts.
  const { loopWatchMs, loopWatchFile } = ctx.config;
  const stopLoopWatch = loopWatchMs > 0 ? startLoopWatch(loopWatchMs, loopWatchFile) : () => undefined;

  app.addHook('onClose', async () => {
    stopLoopWatch();
    await limits.close();
    await ctx.close();
  });
  return app;
}
