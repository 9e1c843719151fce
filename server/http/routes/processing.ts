/** Processing (spec §7): start a work (transform) and poll its progress. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { ok } from '../envelope.js';
import { principalOf } from '../auth.js';

/**
 * Query + body as one flat record. Multipart bodies (FormData without files) are read into
 * req.body first, so tokenOf() finds the token there too.
 */
export async function fieldsOf(req: FastifyRequest): Promise<Record<string, unknown>> {
  if (req.isMultipart()) {
    const fields: Record<string, unknown> = {};
    for await (const part of req.parts()) {
      if (part.type === 'field') addField(fields, part.fieldname, part.value);
      else part.file.resume();
    }
    (req as { body: unknown }).body = fields;
  }
  const out: Record<string, unknown> = {};
  for (const src of [req.query, req.body]) {
    if (!src || typeof src !== 'object' || Buffer.isBuffer(src)) continue;
    for (const [k, v] of Object.entries(src as Record<string, unknown>)) addField(out, k, v);
  }
  return out;
}

/** `a[]=x&a[]=y` and `a=x` land under `a`; later sources win for single values. */
function addField(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key.endsWith('[]')) {
    const k = key.slice(0, -2);
    const prev = out[k];
    out[k] = [...(Array.isArray(prev) ? prev : prev === undefined ? [] : [prev]), ...(Array.isArray(value) ? value : [value])];
  } else out[key] = value;
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

export async function processingRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const jobs = ctx.services.jobs;

  app.post('/web_api/v1/transform', async (req) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx);
    const jconfig = typeof f.jconfig === 'object' && f.jconfig !== null ? JSON.stringify(f.jconfig) : str(f.jconfig);
    return ok(await jobs.transform(p, { uid: str(f.uid), jconfig, zoom_type: str(f.zoom_type) }));
  });

  app.get('/web_api/v1/progress', async (req) => {
    const f = await fieldsOf(req);
    const p = await principalOf(req, ctx);
    return ok(await jobs.progress(p, str(f.trans_id)));
  });
}
