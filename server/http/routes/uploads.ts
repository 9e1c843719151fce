/** Upload routes of spec §7: whole file, slices (+ resume status), by URL, list, delete, source and thumbnail; retention and quota view. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { mimeOf } from '../../repositories/imageRepository.js';
import { principalOf, principalOfFields } from '../auth.js';
import { ok } from '../envelope.js';
import { idList, readMultipart } from '../params.js';
import { checkFields, route } from '../schemaRoute.js';
import {
  Retention,
  SliceStatus,
  Thumbnail,
  Upload,
  UploadDelete,
  UploadList,
  UploadSlice,
  UploadSource,
  UploadUrl,
} from '../../../src/shared/schemas/uploads.js';

/** The caller from the multipart fields: an api_token field, a site token field, or tokenOf (auth.ts). */
function multipartPrincipal(req: FastifyRequest, ctx: AppContext, fields: Record<string, string>) {
  return principalOfFields(req, ctx, fields);
}

function sendBlob(ctx: AppContext, reply: FastifyReply, key: string, format: 'jpeg' | 'png', filename?: string) {
  reply
    .header('content-type', mimeOf(format))
    .header('cache-control', 'private, max-age=86400')
    .header('x-content-type-options', 'nosniff');
  if (filename) reply.header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(filename)}`);
  return reply.send(ctx.blobs.stream(key));
}

export async function uploadRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const uploads = ctx.services.uploads;
  const auth = { authenticate: (req: FastifyRequest) => principalOf(req, ctx) };

  /** The multipart body with its caller resolved before any file part is buffered (see readMultipart). */
  async function authorizedMultipart(req: FastifyRequest) {
    let principal: Awaited<ReturnType<typeof multipartPrincipal>> | undefined;
    const mp = await readMultipart(req, async (fields) => {
      principal = await multipartPrincipal(req, ctx, fields);
    });
    return { mp, p: principal! };
  }

  route(app, Upload, async (_f, req) => {
    const { mp, p } = await authorizedMultipart(req);
    const f = checkFields(Upload, mp.fields);
    const file = mp.files.file;
    const data = await uploads.uploadWhole(p, {
      file: file?.data,
      filename: file?.filename || f.name || '',
      thumbnail: mp.files.thumbnail?.data,
      job: f.job,
    });
    return ok({ data });
  });

  route(app, UploadSlice, async (_f, req) => {
    const { mp, p } = await authorizedMultipart(req);
    const f = checkFields(UploadSlice, mp.fields);
    return ok(
      await uploads.receiveSlice(p, {
        uid: f.uid || undefined,
        blobNum: f.blob_num,
        totalBlobNum: f.total_blob_num,
        name: f.name || mp.files.file?.filename,
        chunk: mp.files.file?.data,
        thumbnail: mp.files.thumbnail?.data,
        job: f.job,
      }),
    );
  });

  route(app, SliceStatus, auth, async (f, req) => ok(await uploads.sliceStatus(await principalOf(req, ctx), f.uid)));

  route(app, UploadUrl, auth, async (f, req) => {
    const data = await uploads.uploadFromUrl(await principalOf(req, ctx), f.url, f.type ?? f.job);
    return ok({ data });
  });

  route(app, UploadList, auth, async (f, req) => {
    const p = await principalOf(req, ctx);
    // retention_days: how long this caller's results and sources are kept, for the client to say so.
    return ok({ datas: await uploads.list(p, f.limit), retention_days: ctx.services.retention.daysFor(p.level) });
  });

  /** The caller's retention and upload quota: days kept, uploads a minute, bytes kept and used. */
  route(app, Retention, async (_f, req) => ok(await ctx.services.retention.view(await principalOf(req, ctx))));

  route(app, UploadDelete, auth, async (f, req) =>
    ok(await uploads.remove(await principalOf(req, ctx), idList(f, 'uid', 'uids'))),
  );

  // zoom_type is accepted for the client's call shape; the source is always the working copy.
  route(app, UploadSource, auth, async (f, req, reply) => {
    const src = await uploads.source(await principalOf(req, ctx), f.uid);
    return sendBlob(ctx, reply, src.key, src.format, src.filename);
  });

  route(app, Thumbnail, auth, async (f, req, reply) => {
    const t = await uploads.thumbnail(await principalOf(req, ctx), f.uid);
    return sendBlob(ctx, reply, t.key, t.format);
  });
}
