/** The contact page's calls: the address to show, and the form's post (rate-limited like the account forms). */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { ok } from '../envelope.js';
import { fieldsOf, str } from '../params.js';

const CONTACT_RATE_LIMIT = { config: { rateLimit: { max: 5, timeWindow: '1 minute' } } };

export async function contactRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { contact } = ctx.services;
  app.get('/api/contact/info', async () => ok(contact.info()));
  app.post('/api/contact/send', CONTACT_RATE_LIMIT, async (req) => {
    const q = await fieldsOf(req);
    return ok(await contact.send({ name: str(q.name), email: str(q.email), message: str(q.message), locale: str(q.locale) }));
  });
}
