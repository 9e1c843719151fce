/** Results (spec §7 "Downloads and previews"): single download, preview, compress conversion, bulk zip and point check. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import { contentTypeOf, disposition } from '../../jobs/results.js';
import type { DownloadFile, ZipDownload } from '../../services/downloads.js';
import { ok } from '../envelope.js';
import { principalOf } from '../auth.js';
import { fieldsOf, idList, str } from '../params.js';

const BULK_TOKENS = ['guest_token_v2', 'user_token', 'token'];

export async function downloadRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { downloads } = ctx.services;

  function sendFile(reply: FastifyReply, f: DownloadFile, kind: 'attachment' | 'inline') {
    reply.type(contentTypeOf(f.ext)).header('content-disposition', disposition(kind, f.name)).header('x-content-type-options', 'nosniff');
    if ('data' in f) return reply.header('cache-control', 'private, no-store').send(f.data);
    return reply.header('content-length', f.size).header('cache-control', 'private, max-age=3600').send(ctx.blobs.stream(f.key));
  }

  function sendZip(reply: FastifyReply, z: ZipDownload) {
    return reply.type('application/zip').header('content-disposition', disposition('attachment', z.name)).header('cache-control', 'private, no-store').send(z.stream);
  }

  // The spec's path ends in '/'; the bare form is accepted too (Fastify matches slashes strictly).
  for (const url of ['/web_api/v1/download/', '/web_api/v1/download']) {
    app.get(url, async (req, reply) => {
      const f = await fieldsOf(req);
      const p = await principalOf(req, ctx);
      return sendFile(reply, await downloads.result(p, str(f.trans_id), str(f.zoom_type)), 'attachment');
    });
  }

  app.get('/web_api/v1/preview', async (req, reply) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx);
    return sendFile(reply, await downloads.result(p, str(f.trans_id)), 'inline');
  });

  app.post('/api/job/download_compress', async (req, reply) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx, BULK_TOKENS);
    return sendFile(reply, await downloads.compressed(p, str(f.trans_id), str(f.extra_type)), 'attachment');
  });

  app.post('/api/v2/point/check', async (req) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx, BULK_TOKENS);
    return ok(await downloads.pointCheck(p, idList(f, 'trans_id', 'trans_ids'), str(f.need_download_temp_id) === '1'));
  });

  app.post('/api/v2/download/all', async (req, reply) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx, BULK_TOKENS);
    return sendZip(reply, await downloads.zipOfWorks(p, idList(f, 'trans_id', 'trans_ids')));
  });

  for (const url of ['/api/v2/download/all/', '/api/v2/download/all']) {
    app.get(url, async (req, reply) => {
      const f = await fieldsOf(req);
      const p = await principalOf(req, ctx, BULK_TOKENS);
      return sendZip(reply, await downloads.zipOfBundle(p, str(f.download_all_id)));
    });
  }
}
