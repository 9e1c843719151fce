/**
 * Request parsing for every route file, in one place: query + form/JSON/multipart bodies as one flat
 * record, multipart with files, string fields and id lists. Routes stay thin: they parse here, call a
 * service, and wrap the answer with ok().
 */
import type { FastifyRequest } from 'fastify';
import { paramError } from '../errors.js';

export type Fields = Record<string, unknown>;

/** `a[]=x&a[]=y` and `a=x` land under `a`; later sources win for single values. */
function addField(out: Fields, key: string, value: unknown): void {
  if (key.endsWith('[]')) {
    const k = key.slice(0, -2);
    const prev = out[k];
    out[k] = [...(Array.isArray(prev) ? prev : prev === undefined ? [] : [prev]), ...(Array.isArray(value) ? value : [value])];
  } else out[key] = value;
}

function merge(out: Fields, src: unknown): Fields {
  if (!src || typeof src !== 'object' || Buffer.isBuffer(src) || Array.isArray(src)) return out;
  for (const [k, v] of Object.entries(src as Fields)) addField(out, k, v);
  return out;
}

/**
 * Query + body as one flat record (the body wins). Multipart bodies (FormData without files) are read
 * into req.body first, so tokenOf() finds the token there too; file parts are drained and ignored.
 */
export async function fieldsOf(req: FastifyRequest): Promise<Fields> {
  if (req.isMultipart()) {
    const fields: Fields = {};
    for await (const part of req.parts()) {
      if (part.type === 'field') addField(fields, part.fieldname, part.value);
      else part.file.resume();
    }
    (req as { body: unknown }).body = fields;
  }
  return merge(merge({}, req.query), req.body);
}

/** The body alone, for forms whose fields must never travel in a URL (passwords, nonces). */
export function bodyOf(req: FastifyRequest): Fields {
  return merge({}, req.body);
}

export interface Multipart {
  fields: Record<string, string>;
  files: Record<string, { data: Buffer; filename: string }>;
}

/** Every part of a multipart body; file bytes are capped by @fastify/multipart's limits (413 in app.ts). */
export async function readMultipart(req: FastifyRequest): Promise<Multipart> {
  if (!req.isMultipart()) throw paramError('multipart/form-data expected');
  const out: Multipart = { fields: {}, files: {} };
  for await (const part of req.parts()) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      out.files[part.fieldname] = { data, filename: part.filename ?? '' };
    } else if (typeof part.value === 'string') {
      out.fields[part.fieldname] = part.value;
    }
  }
  return out;
}

/** A string field (numbers as their text); anything else is absent. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/** uid or uids, each as one value, an array (`uids[]`) or a comma list. */
export function idList(f: Fields, single: string, plural: string): string[] {
  const raw = [f[single], f[plural], f[`${plural}[]`]].flat().filter((v) => v !== undefined && v !== null);
  return [...new Set(raw.flatMap((v) => String(v).split(',')).map((s) => s.trim()).filter(Boolean))];
}
