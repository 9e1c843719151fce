/** History and feedback (spec §7): the account's works, and thumbs up/down on a result. */
import type { FastifyInstance } from 'fastify';
import { JobRecord, Thumbsup } from '../../../src/shared/schemas/history.js';
import type { AppContext } from '../../context.js';
import { ok } from '../envelope.js';
import { principalOf } from '../auth.js';
import { route } from '../schemaRoute.js';

export async function historyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { jobs } = ctx.services;

  route(app, JobRecord, async (f, req) => ok(await jobs.history(await principalOf(req, ctx), f)));

  route(app, Thumbsup, async (f, req) => ok(await jobs.thumbsup(await principalOf(req, ctx), f)));
}
