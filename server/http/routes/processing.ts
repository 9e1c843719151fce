/** Processing (spec §7): start a work (transform) and poll its progress. */
import type { FastifyInstance } from 'fastify';
import { Progress, Transform } from '../../../src/shared/schemas/processing.js';
import type { AppContext } from '../../context.js';
import { ok } from '../envelope.js';
import { isApiRequest, principalOf, tokenOf } from '../auth.js';
import { pollLogLevel } from '../logging.js';
import { route } from '../schemaRoute.js';

export async function processingRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const jobs = ctx.services.jobs;
  const authenticate = (req: Parameters<typeof principalOf>[0]) => principalOf(req, ctx);

  route(app, Transform, { authenticate }, async (f, req) => ok(await jobs.transform(await principalOf(req, ctx), f)));

  // Polled every few seconds by every open tab: the token, its account and the work in one database
  // round trip; its request log lines only at warn and above (errors stay logged).
  route(app, Progress, { logLevel: pollLogLevel(ctx.config.logLevel), authenticate }, async (f, req) => {
    // An API token's call was admitted with its account already read (auth.ts): the work is read by owner.
    if (isApiRequest(req)) return ok(await jobs.progress(await principalOf(req, ctx), f.trans_id));
    const { job } = await ctx.services.tokens.resolveWithProgress(tokenOf(req), f.trans_id);
    return ok(await jobs.progressOf(job));
  });
}
