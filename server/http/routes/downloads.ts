/** Results (spec §7 "Downloads and previews"): single download, preview, compress conversion, bulk zip and point check. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Job } from '../../repositories/schema.js';
import { contentTypeOf, convertCompressed, disposition, downloadName, EXTRA_TYPES, extOf, extOfKey, zipOf, type ExtraType } from '../../jobs/results.js';
import { ok } from '../envelope.js';
import { notFound, paramError } from '../../errors.js';
import { principalOf } from '../auth.js';
import { fieldsOf, idList, str } from '../params.js';

export async function downloadRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { jobs } = ctx.services;
  const blobs = ctx.blobs;

  /** The result file of a finished work, or an extra variant (zoom_type) when the work has one. */
  async function resultOf(job: Job & { result_key: string }, variant: string | undefined) {
    const extras = job.extras_json ? (JSON.parse(job.extras_json) as Record<string, string>) : {};
    const key = variant && extras[variant] ? extras[variant]! : job.result_key;
    const ext = key === job.result_key ? extOf(job.result_format ?? extOfKey(key)) : extOfKey(key);
    const upload = await jobs.upload(job);
    return { key, ext, name: downloadName(upload?.filename, job.job, ext) };
  }

  async function sendBlob(reply: FastifyReply, key: string, ext: string, name: string, kind: 'attachment' | 'inline') {
    // A result file removed from the volume answers like a missing work, not a 500.
    const size = await blobs.size(key).catch(() => {
      throw notFound('result not found');
    });
    return reply
      .type(contentTypeOf(ext))
      .header('content-length', size)
      .header('content-disposition', disposition(kind, name))
      .header('cache-control', 'private, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(blobs.stream(key));
  }

  // The spec's path ends in '/'; the bare form is accepted too (Fastify matches slashes strictly).
  for (const url of ['/web_api/v1/download/', '/web_api/v1/download']) {
    app.get(url, async (req, reply) => {
      const f = await fieldsOf(req);
      const p = await principalOf(req, ctx);
      const job = await jobs.finished(p, str(f.trans_id));
      const r = await resultOf(job, str(f.zoom_type));
      return sendBlob(reply, r.key, r.ext, r.name, 'attachment');
    });
  }

  app.get('/web_api/v1/preview', async (req, reply) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx);
    const job = await jobs.finished(p, str(f.trans_id));
    const r = await resultOf(job, undefined);
    return sendBlob(reply, r.key, r.ext, r.name, 'inline');
  });

  app.post('/api/job/download_compress', async (req, reply) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx, ['guest_token_v2', 'user_token', 'token']);
    const job = await jobs.finished(p, str(f.trans_id));
    if (job.job !== 'compress') throw paramError('not a compress work');
    const extra = str(f.extra_type)?.toLowerCase();
    const r = await resultOf(job, undefined);
    if (!extra || extra === r.ext) return sendBlob(reply, r.key, r.ext, r.name, 'attachment');
    if (!(EXTRA_TYPES as readonly string[]).includes(extra)) throw paramError(`extra_type must be one of ${EXTRA_TYPES.join(', ')}`);
    const steps = JSON.parse(job.steps_json) as Array<{ config: { module_params: { quality?: number } } }>;
    const quality = Number(steps[0]?.config.module_params.quality) || 50;
    const data = await convertCompressed(await blobs.read(r.key), extra as ExtraType, quality);
    const upload = await jobs.upload(job);
    return reply
      .type(contentTypeOf(extra))
      .header('content-disposition', disposition('attachment', downloadName(upload?.filename, job.job, extra)))
      .header('cache-control', 'private, no-store')
      .send(data);
  });

  app.post('/api/v2/point/check', async (req) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx, ['guest_token_v2', 'user_token', 'token']);
    return ok(await jobs.pointCheck(p, idList(f, 'trans_id', 'trans_ids'), str(f.need_download_temp_id) === '1'));
  });

  async function sendZip(reply: FastifyReply, works: Array<Job & { result_key: string }>) {
    const entries = [];
    for (const job of works) {
      const r = await resultOf(job, undefined);
      if (!(await blobs.exists(r.key))) throw notFound('result not found');
      entries.push({ path: blobs.pathOf(r.key), name: r.name });
    }
    const name = `pixmill-${new Date().toISOString().slice(0, 10)}.zip`;
    return reply.type('application/zip').header('content-disposition', disposition('attachment', name)).header('cache-control', 'private, no-store').send(zipOf(entries));
  }

  app.post('/api/v2/download/all', async (req, reply) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx, ['guest_token_v2', 'user_token', 'token']);
    return sendZip(reply, await jobs.bulkWorks(p, idList(f, 'trans_id', 'trans_ids')));
  });

  for (const url of ['/api/v2/download/all/', '/api/v2/download/all']) {
    app.get(url, async (req, reply) => {
      const f = await fieldsOf(req);
      const p = await principalOf(req, ctx, ['guest_token_v2', 'user_token', 'token']);
      return sendZip(reply, await jobs.bundleWorks(p, str(f.download_all_id)));
    });
  }
}
