/** Sample routes of spec §7: the list keyed by feature type, and the sample images. */
import fs from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SampleDownload, SampleFile, SampleInfo } from '../../../src/shared/schemas/site.js';
import type { AppContext } from '../../context.js';
import { ok } from '../envelope.js';
import { route } from '../schemaRoute.js';

function sendFile(reply: FastifyReply, f: { file: string; mime: string }) {
  return reply
    .header('content-type', f.mime)
    .header('cache-control', 'public, max-age=86400')
    .header('x-content-type-options', 'nosniff')
    .send(fs.createReadStream(f.file));
}

export async function sampleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const samples = ctx.services.samples;
  route(app, SampleInfo, async () => ok(await samples.info()));
  route(app, SampleDownload, async (q, _req, reply) => sendFile(reply, await samples.download(q)));
  route(app, SampleFile, async (q, _req, reply) => sendFile(reply, await samples.file(q.name ?? q.path)));
}
