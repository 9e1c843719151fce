/** Sample routes of spec §7: the list keyed by feature type, and the sample images. */
import fs from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import { ok } from '../envelope.js';
import { fieldsOf, str } from '../params.js';

function sendFile(reply: FastifyReply, f: { file: string; mime: string }) {
  return reply.header('content-type', f.mime).header('cache-control', 'public, max-age=86400').header('x-content-type-options', 'nosniff').send(fs.createReadStream(f.file));
}

export async function sampleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const samples = ctx.services.samples;
  app.get('/api/v2/sample/info', async () => ok(await samples.info()));
  app.get('/api/v2/sample/download', async (req, reply) => {
    const q = await fieldsOf(req);
    return sendFile(reply, await samples.download({ job: str(q.job), type: str(q.type), num: str(q.num), rate: str(q.rate) }));
  });
  app.get('/api/job_utils/download/sample', async (req, reply) => {
    const q = await fieldsOf(req);
    return sendFile(reply, await samples.file(str(q.name) ?? str(q.path)));
  });
}
