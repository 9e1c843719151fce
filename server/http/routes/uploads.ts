/** Upload routes of spec §7: whole file, slices (+ resume status), by URL, list, delete, source and thumbnail; retention and quota view. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { mimeOf } from '../../repositories/imageRepository.js';
import { principalOf, principalOfFields } from '../auth.js';
import { ok } from '../envelope.js';
import { fieldsOf, idList, readMultipart, str } from '../params.js';

/** The caller from the multipart fields: an api_token field, a site token field, or tokenOf (auth.ts). */
function multipartPrincipal(req: FastifyRequest, ctx: AppContext, fields: Record<string, string>) {
  return principalOfFields(req, ctx, fields);
}

function sendBlob(ctx: AppContext, reply: FastifyReply, key: string, format: 'jpeg' | 'png', filename?: string) {
  reply.header('content-type', mimeOf(format)).header('cache-control', 'private, max-age=86400').header('x-content-type-options', 'nosniff');
  if (filename) reply.header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(filename)}`);
  return reply.send(ctx.blobs.stream(key));
}

export async function uploadRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const uploads = ctx.services.uploads;

  /** The multipart body with its caller resolved before any file part is buffered (see readMultipart). */
  async function authorizedMultipart(req: FastifyRequest) {
    let principal: Awaited<ReturnType<typeof multipartPrincipal>> | undefined;
    const mp = await readMultipart(req, async (fields) => {
      principal = await multipartPrincipal(req, ctx, fields);
    });
    return { mp, p: principal! };
  }

  app.post('/web_api/v1/upload', async (req) => {
    const { mp, p } = await authorizedMultipart(req);
    const file = mp.files.file;
    const data = await uploads.uploadWhole(p, { file: file?.data, filename: file?.filename || mp.fields.name || '', thumbnail: mp.files.thumbnail?.data, job: mp.fields.job });
    return ok({ data });
  });

  app.post('/api/v2/upload_slice', async (req) => {
    const { mp, p } = await authorizedMultipart(req);
    const f = mp.fields;
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

  app.post('/api/v2/upload_slice/status', async (req) => {
    const p = await principalOf(req, ctx);
    return ok(await uploads.sliceStatus(p, str((await fieldsOf(req)).uid)));
  });

  app.post('/api/job_utils/upload_url', async (req) => {
    const p = await principalOf(req, ctx);
    const q = await fieldsOf(req);
    const data = await uploads.uploadFromUrl(p, str(q.url), str(q.type) ?? str(q.job));
    return ok({ data });
  });

  app.post('/web_api/v1/upload/list', async (req) => {
    const p = await principalOf(req, ctx);
    // retention_days: how long this caller's results and sources are kept, for the client to say so.
    return ok({ datas: await uploads.list(p, (await fieldsOf(req)).limit), retention_days: ctx.services.retention.daysFor(p.level) });
  });

  /** The caller's retention and upload quota: days kept, uploads a minute, bytes kept and used. */
  app.get('/api/v2/retention', async (req) => ok(await ctx.services.retention.view(await principalOf(req, ctx))));

  app.post('/web_api/v1/upload/delete', async (req) => {
    const p = await principalOf(req, ctx);
    return ok(await uploads.remove(p, idList(await fieldsOf(req), 'uid', 'uids')));
  });

  app.get('/web_api/v1/download/src', async (req, reply) => {
    const p = await principalOf(req, ctx);
    // zoom_type is accepted for the client's call shape; the source is always the working copy.
    const src = await uploads.source(p, str((await fieldsOf(req)).uid));
    return sendBlob(ctx, reply, src.key, src.format, src.filename);
  });

  app.get('/web_api/v1/thumbnail', async (req, reply) => {
    const p = await principalOf(req, ctx);
    const t = await uploads.thumbnail(p, str((await fieldsOf(req)).uid));
    return sendBlob(ctx, reply, t.key, t.format);
  });
}
