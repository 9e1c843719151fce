/** Workflow routes of spec §7 (logged-in users only). */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { principalOf } from '../auth.js';
import { ok } from '../envelope.js';
import { fieldsOf, type Fields } from '../params.js';

/** ids as `ids`, `ids[]` or a single `id`. */
const idsOf = (q: Fields) => q.ids ?? q['ids[]'] ?? q.id;

export async function workflowRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const workflows = ctx.services.workflows;

  app.get('/api/work_flow/list', async (req) => {
    const q = (await fieldsOf(req));
    return ok(await workflows.list(await principalOf(req, ctx), q.page, q.limit));
  });
  app.post('/api/work_flow/add', async (req) => {
    const q = (await fieldsOf(req));
    return ok(await workflows.add(await principalOf(req, ctx), { name: q.name, flows: q.flows }));
  });
  app.post('/api/work_flow/update', async (req) => {
    const q = (await fieldsOf(req));
    return ok(await workflows.update(await principalOf(req, ctx), q.id, { name: q.name, flows: q.flows }));
  });
  app.post('/api/work_flow/delete', async (req) => {
    return ok(await workflows.remove(await principalOf(req, ctx), idsOf((await fieldsOf(req)))));
  });
  app.post('/api/work_flow/active_flows', async (req) => {
    return ok({ datas: await workflows.activeFlows(await principalOf(req, ctx), idsOf((await fieldsOf(req)))) });
  });
}
