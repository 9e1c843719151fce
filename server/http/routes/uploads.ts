/** Upload routes of spec §7: whole file, slices (+ resume status), by URL, list, delete, source and thumbnail; retention and quota view. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { CHUNK_SIZE_BYTES } from '../../../src/shared/domain/constants.js';
import { uploadRefused } from '../../errors.js';
import { CLIENT_THUMB_MAX_BYTES, mimeOf } from '../../repositories/imageRepository.js';
import { fileTooLarge } from '../../services/sizeRefusals.js';
import type { Principal } from '../../services/tokens.js';
import { principalOf, principalOfFields } from '../auth.js';
import { ok } from '../envelope.js';
import { idList, readMultipart, str } from '../params.js';
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

/** What a multipart body may hold besides its file and thumbnail: the fields and the parts' headers. */
const FIELDS_ALLOWANCE = 64 * 1024;

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

  /**
   * The multipart body with its caller resolved before any file part is read (see readMultipart), and
   * then held to the caller's own limit: a Content-Length over it is refused (413) before the file's
   * bytes are read, and no file part is read past it (a guest's 47 MB body is not held in memory to be
   * refused after). `fileMax` is the caller's largest file for this call.
   */
  async function authorizedMultipart(
    req: FastifyRequest,
    fileMax: (p: Principal, fields: Record<string, string>) => { max: number; over: () => Error },
  ) {
    let principal: Principal | undefined;
    const mp = await readMultipart(req, async (fields) => {
      const p = await multipartPrincipal(req, ctx, fields);
      principal = p;
      const file = fileMax(p, fields);
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > file.max + CLIENT_THUMB_MAX_BYTES + FIELDS_ALLOWANCE)
        throw file.over();
      return (name: string) =>
        name === 'file' ? file : name === 'thumbnail' ? { max: CLIENT_THUMB_MAX_BYTES } : { max: 0 };
    });
    return { mp, p: principal! };
  }

  /** A whole file: the plan's limit for the job named before the file, else the larger of its two limits. */
  const wholeFileMax = (p: Principal, fields: Record<string, string>) => {
    const max = fields.job
      ? uploads.limitsFor(p, fields.job).maxBytes
      : Math.max(p.limits.maxFileBytes, p.limits.compressMaxBytes);
    return { max, over: () => fileTooLarge(max) };
  };
  const sliceMax = () => ({ max: CHUNK_SIZE_BYTES, over: () => uploadRefused('sliceTooLarge') });

  route(app, Upload, async (_f, req) => {
    const { mp, p } = await authorizedMultipart(req, wholeFileMax);
    const f = checkFields(Upload, mp.fields);
    const file = mp.files.file;
    const data = await uploads.uploadWhole(p, {
      file: file?.data,
      filename: file?.filename || f.name || '',
      thumbnail: mp.files.thumbnail?.data,
      job: f.job,
      idempotencyKey: str(req.headers['idempotency-key']),
    });
    return ok({ data });
  });

  route(app, UploadSlice, async (_f, req) => {
    const { mp, p } = await authorizedMultipart(req, sliceMax);
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
