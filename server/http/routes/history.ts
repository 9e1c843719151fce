/** History and feedback (spec §7): the account's works, and thumbs up/down on a result. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { ok } from '../envelope.js';
import { principalOf } from '../auth.js';
import { fieldsOf, str } from '../params.js';

export async function historyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { jobs } = ctx.services;

  app.get('/api/job/record', async (req) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx);
    return ok(await jobs.history(p, f.limit, f.page));
  });

  app.post('/api/v2/thumbsup', async (req) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx);
    return ok(await jobs.thumbsup(p, str(f.trans_id), f.thumbsup));
  });
}
