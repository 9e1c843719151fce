/** The contact page's calls: the address to show, and the form's post (rate-limited like the account forms). */
import type { FastifyInstance } from 'fastify';
import { ContactInfo, ContactSend } from '../../../src/shared/schemas/site.js';
import type { AppContext } from '../../context.js';
import { ok } from '../envelope.js';
import { route } from '../schemaRoute.js';

const CONTACT_RATE_LIMIT = { rateLimit: { max: 5, timeWindow: '1 minute' } };

export async function contactRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { contact } = ctx.services;
  route(app, ContactInfo, async () => ok(contact.info()));
  route(app, ContactSend, CONTACT_RATE_LIMIT, async (q) => ok(await contact.send(q)));
}
