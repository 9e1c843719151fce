/** The Fastify application: plugins, the envelope error handler, API routes and the PWA. */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { CODE } from '../src/domain/codes.js';
import { CHUNK_SIZE_BYTES } from '../src/domain/constants.js';
import { PLAN_LIMITS } from '../src/domain/plans.js';
import { UPLOAD_REFUSAL } from '../src/domain/uploadRefusals.js';
import type { AppContext } from './context.js';
import { ApiError } from './http/envelope.js';
import { replyIfUnavailable } from './http/dbHealth.js';
import { registerRoutes } from './http/routes/index.js';

/** The largest file any plan may send in one request (compress limit), plus multipart slack. */
export const MAX_UPLOAD_BYTES = Math.max(...Object.values(PLAN_LIMITS).map((l) => l.compressMaxBytes), CHUNK_SIZE_BYTES);

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    logger: ctx.config.logLevel === 'silent' ? false : { level: ctx.config.logLevel },
    bodyLimit: 1024 * 1024,
    trustProxy: true,
  });

  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 2, fields: 20, fieldSize: 256 * 1024, parts: 24 },
  });
  await app.register(rateLimit, { global: false });

  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    // database or queue unreachable → 503 'Service temporarily unavailable' (clients retry; nothing lost)
    if (replyIfUnavailable(err, req, reply)) return reply;
    if (err instanceof ApiError) {
      return reply.status(err.httpStatus).send({ code: err.code, msg: err.message, data: err.data });
    }
    const e = err as FastifyError;
    if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.statusCode === 413) {
      return reply.status(413).send({ code: CODE.PARAM_ERROR, msg: UPLOAD_REFUSAL.fileTooLarge, data: null });
    }
    if (e.statusCode === 429) {
      return reply.status(429).send({ code: CODE.PARAM_ERROR, msg: UPLOAD_REFUSAL.tooManyRequests, data: null });
    }
    if (e.validation || (e.statusCode && e.statusCode >= 400 && e.statusCode < 500)) {
      return reply.status(e.statusCode ?? 400).send({ code: CODE.PARAM_ERROR, msg: 'parameter error', data: null });
    }
    req.log.error(err);
    return reply.status(500).send({ code: 500, msg: 'Something went wrong, please try again.', data: null });
  });

  await registerRoutes(app, ctx);

  // The built PWA; any other non-API GET falls back to index.html (client-side routes, language prefixes).
  const clientDir = ctx.config.clientDir;
  const index = path.join(clientDir, 'index.html');
  if (fs.existsSync(index)) {
    await app.register(fastifyStatic, { root: clientDir, wildcard: false, index: ['index.html'] });
  }
  app.setNotFoundHandler((req, reply) => {
    const isApi = /^\/(api|web_api|site-ajax)(\/|$)/.test(req.url);
    if (req.method === 'GET' && !isApi && fs.existsSync(index)) {
      return reply.type('text/html').header('cache-control', 'no-cache').send(fs.createReadStream(index));
    }
    return reply.status(404).send({ code: CODE.PARAM_ERROR, msg: 'not found', data: null });
  });

  app.addHook('onClose', async () => {
    await ctx.close();
  });
  return app;
}
