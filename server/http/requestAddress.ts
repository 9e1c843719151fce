/** The Fastify hook that holds each request's client address for the rules that count per address (../clientAddress.ts). */
import type { FastifyInstance } from 'fastify';
import { withClientAddress } from '../clientAddress.js';

export function registerClientAddress(app: FastifyInstance): void {
  app.addHook('preHandler', (req, _reply, done) => {
    withClientAddress(req.ip, done);
  });
}
