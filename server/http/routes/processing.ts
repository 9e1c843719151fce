/** Processing (spec §7): start a work (transform) and poll its progress. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { ok } from '../envelope.js';
import { isApiRequest, principalOf, tokenOf } from '../auth.js';
import { pollLogLevel } from '../logging.js';
import { fieldsOf, str } from '../params.js';

export async function processingRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const jobs = ctx.services.jobs;

  app.post('/web_api/v1/transform', async (req) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx);
    return ok(await jobs.transform(p, { uid: str(f.uid), jconfig: f.jconfig, zoom_type: str(f.zoom_type) }));
  });

  // Polled every few seconds by every open tab: the token, its account and the work in one database
  // round trip; its request log lines only at warn and above (errors stay logged).
  app.get('/web_api/v1/progress', { logLevel: pollLogLevel(ctx.config.logLevel) }, async (req) => {
    const f = await fieldsOf(req);
    const transId = str(f.trans_id);
    // An API token's call was admitted with its account already read (auth.ts): the work is read by owner.
    if (!transId || isApiRequest(req)) return ok(await jobs.progress(await principalOf(req, ctx), transId));
    const { job } = await ctx.services.tokens.resolveWithProgress(tokenOf(req), transId);
    return ok(await jobs.progressOf(job));
  });
}
