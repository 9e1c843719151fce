/** Processing (spec §7): start a work (transform) and poll its progress. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { ok } from '../envelope.js';
import { principalOf } from '../auth.js';
import { fieldsOf, str } from '../params.js';

export async function processingRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const jobs = ctx.services.jobs;

  app.post('/web_api/v1/transform', async (req) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx);
    return ok(await jobs.transform(p, { uid: str(f.uid), jconfig: f.jconfig, zoom_type: str(f.zoom_type) }));
  });

  app.get('/web_api/v1/progress', async (req) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx);
    return ok(await jobs.progress(p, str(f.trans_id)));
  });
}
