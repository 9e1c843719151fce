/** Workflow routes of spec §7 (logged-in users only). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ActiveFlows,
  WorkflowAdd,
  WorkflowDelete,
  WorkflowList,
  WorkflowUpdate,
} from '../../../src/shared/schemas/workflows.js';
import type { AppContext } from '../../context.js';
import { principalOf } from '../auth.js';
import { ok } from '../envelope.js';
import { route } from '../schemaRoute.js';

/** ids as `ids`, `ids[]` or a single `id`. */
const idsOf = (q: { id?: number; ids?: string | number | number[] }) => q.ids ?? q.id;

export async function workflowRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const workflows = ctx.services.workflows;
  const auth = { authenticate: (req: FastifyRequest) => principalOf(req, ctx) };

  route(app, WorkflowList, auth, async (q, req) =>
    ok(await workflows.list(await principalOf(req, ctx), q.page, q.limit)),
  );
  route(app, WorkflowAdd, auth, async (q, req) => ok(await workflows.add(await principalOf(req, ctx), q)));
  route(app, WorkflowUpdate, auth, async (q, req) => ok(await workflows.update(await principalOf(req, ctx), q.id, q)));
  route(app, WorkflowDelete, auth, async (q, req) => ok(await workflows.remove(await principalOf(req, ctx), idsOf(q))));
  route(app, ActiveFlows, auth, async (q, req) =>
    ok({ datas: await workflows.activeFlows(await principalOf(req, ctx), idsOf(q)) }),
  );
}
