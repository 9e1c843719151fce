/** Results (spec §7 "Downloads and previews"): single download, preview, compress conversion, bulk zip and point check. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  Download,
  DownloadAll,
  DownloadAllPost,
  DownloadCompress,
  PointCheck,
  Preview,
} from '../../../src/shared/schemas/downloads.js';
import type { AppContext } from '../../context.js';
import { contentTypeOf, type DownloadFile, type ZipDownload } from '../../services/downloads.js';
import { disposition } from '../disposition.js';
import { ok } from '../envelope.js';
import { principalOf } from '../auth.js';
import { idList } from '../params.js';
import { route } from '../schemaRoute.js';

const BULK_TOKENS = ['guest_token_v2', 'user_token', 'token'];

/** Sends a result file (download, preview, the synchronous process call): its type, name and bytes. */
export function sendResultFile(ctx: AppContext, reply: FastifyReply, f: DownloadFile, kind: 'attachment' | 'inline') {
  reply
    .type(contentTypeOf(f.ext))
    .header('content-disposition', disposition(kind, f.name))
    .header('x-content-type-options', 'nosniff');
  if ('data' in f) return reply.header('cache-control', 'private, no-store').send(f.data);
  return reply
    .header('content-length', f.size)
    .header('cache-control', 'private, max-age=3600')
    .send(ctx.blobs.stream(f.key));
}

export async function downloadRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { downloads } = ctx.services;
  const auth = { authenticate: (req: FastifyRequest) => principalOf(req, ctx) };
  const bulkAuth = { authenticate: (req: FastifyRequest) => principalOf(req, ctx, BULK_TOKENS) };
  const sendFile = (reply: FastifyReply, f: DownloadFile, kind: 'attachment' | 'inline') =>
    sendResultFile(ctx, reply, f, kind);

  function sendZip(reply: FastifyReply, z: ZipDownload) {
    return reply
      .type('application/zip')
      .header('content-disposition', disposition('attachment', z.name))
      .header('cache-control', 'private, no-store')
      .send(z.stream);
  }

  // The spec's path ends in '/'; the bare form is accepted too (Fastify matches slashes strictly).
  route(app, Download, auth, async (f, req, reply) =>
    sendFile(reply, await downloads.result(await principalOf(req, ctx), f.trans_id, f.zoom_type), 'attachment'),
  );

  route(app, Preview, auth, async (f, req, reply) =>
    sendFile(reply, await downloads.result(await principalOf(req, ctx), f.trans_id), 'inline'),
  );

  route(app, DownloadCompress, bulkAuth, async (f, req, reply) =>
    sendFile(
      reply,
      await downloads.compressed(await principalOf(req, ctx, BULK_TOKENS), f.trans_id, f.extra_type),
      'attachment',
    ),
  );

  route(app, PointCheck, bulkAuth, async (f, req) =>
    ok(
      await downloads.pointCheck(
        await principalOf(req, ctx, BULK_TOKENS),
        idList(f, 'trans_id', 'trans_ids'),
        f.need_download_temp_id === 1,
      ),
    ),
  );

  route(app, DownloadAllPost, bulkAuth, async (f, req, reply) =>
    sendZip(
      reply,
      await downloads.zipOfWorks(await principalOf(req, ctx, BULK_TOKENS), idList(f, 'trans_id', 'trans_ids')),
    ),
  );

  route(app, DownloadAll, bulkAuth, async (f, req, reply) =>
    sendZip(reply, await downloads.zipOfBundle(await principalOf(req, ctx, BULK_TOKENS), f.download_all_id)),
  );
}
