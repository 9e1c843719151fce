/** Honest time (issue 51 point 4): this server's engine rates for the estimate before a start. */
import type { FastifyInstance } from 'fastify';
import { EngineRates } from '../../../src/shared/schemas/estimates.js';
import type { AppContext } from '../../context.js';
import { ok } from '../envelope.js';
import { route } from '../schemaRoute.js';

export async function estimateRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  route(app, EngineRates, async (_f, _req, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return ok(await ctx.services.estimates.rates());
  });
}
