/** Every route module of the API (spec §7). Routes are thin: parse, call a service, wrap in the envelope. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { ok } from '../envelope.js';
import { route } from '../schemaRoute.js';
import { Health, OpenApiDocument } from '../../../src/shared/schemas/misc.js';
import { tokenRoutes } from './tokens.js';
import { uploadRoutes } from './uploads.js';
import { processingRoutes } from './processing.js';
import { downloadRoutes } from './downloads.js';
import { historyRoutes } from './history.js';
import { sampleRoutes } from './samples.js';
import { estimateRoutes } from './estimates.js';
import { workflowRoutes } from './workflows.js';
import { subscriptionRoutes } from './subscription.js';
import { siteAjaxRoutes } from './siteAjax.js';
import { miscRoutes } from './misc.js';
import { sitemapRoutes } from './sitemap.js';
import { accountRoutes } from './accounts.js';
import { paymentRoutes } from './payments.js';
import { modelRoutes } from './models.js';
import { contactRoutes } from './contact.js';
import { apiTokenRoutes } from './apiTokens.js';

export async function registerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  route(app, Health, async () => ok({ status: 'up' as const }));
  // The OpenAPI document of every route registered here, generated from their schemas.
  route(app, OpenApiDocument, async (_f, _req, reply) => reply.header('cache-control', 'no-cache').send(app.swagger()));
  await sitemapRoutes(app, ctx);
  for (const routes of [
    tokenRoutes,
    uploadRoutes,
    processingRoutes,
    downloadRoutes,
    historyRoutes,
    sampleRoutes,
    estimateRoutes,
    workflowRoutes,
    subscriptionRoutes,
    siteAjaxRoutes,
    miscRoutes,
    accountRoutes,
    paymentRoutes,
    modelRoutes,
    contactRoutes,
    apiTokenRoutes,
  ]) {
    await routes(app, ctx);
  }
}
