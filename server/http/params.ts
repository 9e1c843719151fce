/**
 * Request parsing for every route file, in one place: query + form/JSON/multipart bodies as one flat
 * record, multipart with files, string fields and id lists. Routes stay thin: they parse here, call a
 * service, and wrap the answer with ok().
 */
import { isServiceUnavailable } from './dbHealth.js';
import type { FastifyRequest } from 'fastify';
import { refused } from '../errors.js';
import { requestRefusal } from './requestErrors.js';

export type Fields = Record<string, unknown>;

/** Whether a parameter value (a string, or strings inside arrays/objects) holds a NUL character. */
function hasNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (!v || typeof v !== 'object' || Buffer.isBuffer(v) || depth > 40) return false;
  if (Array.isArray(v)) return v.some((x) => hasNul(x, depth + 1));
  for (const [k, x] of Object.entries(v as Record<string, unknown>))
    if (k.includes('\u0000') || hasNul(x, depth + 1)) return true;
  return false;
}

/**
 * NUL bytes are refused as malformed parameters in one place, before any route sees them: no text
 * field of ours may hold one, and PostgreSQL refuses them in text (code 22021 became a 500 on 15 routes).
 * Query, body (form, JSON), route params and cookies here; multipart fields where they are read.
 */
export function refuseNul(req: FastifyRequest): void {
  if (
    hasNul(req.query) ||
    hasNul(req.params) ||
    hasNul(req.cookies) ||
    (!Buffer.isBuffer(req.body) && hasNul(req.body))
  )
    throw refused({ reason: 'nulByte' });
}

/** `a[]=x&a[]=y` and `a=x` land under `a`; later sources win for single values. */
function addField(out: Fields, key: string, value: unknown): void {
  if (key.endsWith('[]')) {
    const k = key.slice(0, -2);
    const prev = out[k];
    out[k] = [
      ...(Array.isArray(prev) ? prev : prev === undefined ? [] : [prev]),
      ...(Array.isArray(value) ? value : [value]),
    ];
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
    await eachPart(req, async (part) => {
      if (part.type === 'field') addField(fields, part.fieldname, part.value);
      else part.file.resume();
    });
    (req as { body: unknown }).body = fields;
  }
  return merge(merge({}, req.query), req.body);
}

type Part = Awaited<ReturnType<FastifyRequest['parts']> extends AsyncIterable<infer P> ? P : never>;

/**
 * Every part of a multipart body, in order. A body that does not parse (no boundary, truncated,
 * garbage) or breaks a limit is refused here with its own 4xx text (requestErrors.ts), never a 500;
 * a field cut at the field size limit is refused instead of being used cut.
 */
async function eachPart(req: FastifyRequest, take: (part: Part) => Promise<void>): Promise<void> {
  try {
    const parts = req.parts()[Symbol.asyncIterator]();
    // The first next() runs the iterator up to its first wait, which pipes the body into the parser;
    // the watcher joins in the same tick, before any chunk is delivered.
    let next = parts.next();
    const closed = watchClosingDelimiter(req);
    for (let r = await next; !r.done; r = await next) {
      const part = r.value;
      if (part.type === 'field' && (part as { valueTruncated?: boolean }).valueTruncated) {
        await parts.return?.(undefined);
        throw refused({ reason: 'fieldTooLong', field: part.fieldname });
      }
      if (part.type === 'field' && (hasNul(part.value) || part.fieldname.includes('\u0000'))) {
        await parts.return?.(undefined);
        throw refused({ reason: 'nulByte' });
      }
      await take(part);
      next = parts.next();
    }
    // busboy ends quietly on a body cut between parts (and on an empty one): such a form is not whole.
    if (!closed()) throw refused({ reason: 'truncated' });
  } catch (e) {
    // a database or queue that stopped answering inside a part's handler (the token check) is a 503, not the sender's body
    if (isServiceUnavailable(e)) throw e;
    throw requestRefusal(e, true) ?? e;
  }
}

/** Watches the body bytes (next to the parser) for the closing `--boundary--`; true once it went by. */
function watchClosingDelimiter(req: FastifyRequest): () => boolean {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(String(req.headers['content-type'] ?? ''));
  if (!m) return () => true; // no boundary: the parser refuses the body itself
  const closing = Buffer.from(`--${m[1] ?? m[2]}--`);
  let carry = Buffer.alloc(0);
  let seen = false;
  const onData = (chunk: Buffer) => {
    const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    if (buf.includes(closing)) {
      seen = true;
      req.raw.off('data', onData);
    } else carry = Buffer.from(buf.subarray(Math.max(0, buf.length - closing.length + 1)));
  };
  req.raw.on('data', onData);
  return () => seen;
}

/** The body alone, for forms whose fields must never travel in a URL (passwords, nonces). */
export function bodyOf(req: FastifyRequest): Fields {
  return merge({}, req.body);
}

export interface Multipart {
  fields: Record<string, string>;
  files: Record<string, { data: Buffer; filename: string }>;
}

/**
 * How much of each file part to read (from `beforeFile`): at most `max` bytes of a part; a part over it
 * is refused with `over` (the caller's plan limit, 413) or, when `over` is absent, skipped unread.
 */
export type PartLimits = (fieldname: string) => { max: number; over?: () => Error } | undefined;

/**
 * Every part of a multipart body; file bytes and part counts are capped by @fastify/multipart's limits (413).
 * `beforeFile` runs once, with the fields read so far, before the first file part is buffered: the
 * caller's token is checked there, so a request without a valid one is refused before up to 2 × 50 MB
 * are read into memory (the workspace sends user_token first). It may answer the caller's own limits
 * (PartLimits): then no file part is read past them, so memory follows the caller's plan, not the
 * largest plan's.
 */
export async function readMultipart(
  req: FastifyRequest,
  beforeFile?: (fields: Record<string, string>) => Promise<PartLimits | void>,
): Promise<Multipart> {
  if (!req.isMultipart()) throw refused({ reason: 'multipartExpected' }, 200);
  const out: Multipart = { fields: {}, files: {} };
  let checked = false;
  let limits: PartLimits | undefined;
  await eachPart(req, async (part) => {
    if (part.type === 'file') {
      if (!checked && beforeFile) {
        checked = true;
        try {
          limits = (await beforeFile(out.fields)) ?? undefined;
        } catch (e) {
          part.file.resume();
          throw e;
        }
      }
      const limit = limits?.(part.fieldname);
      const data = limit ? await readAtMost(part.file, limit.max) : await part.toBuffer();
      if (data === null) {
        if (limit?.over) throw limit.over();
        return; // over its limit and optional: skipped
      }
      out.files[part.fieldname] = { data, filename: part.filename ?? '' };
    } else if (typeof part.value === 'string') {
      out.fields[part.fieldname] = part.value;
    }
  });
  if (!checked && beforeFile) await beforeFile(out.fields);
  return out;
}

/**
 * A file part's bytes, or null as soon as it passes `max` (or the parser's own limit cut it): the rest of
 * the part then flows on unkept, so the parser reaches the end of the body without holding it.
 */
function readAtMost(file: NodeJS.ReadableStream & { truncated?: boolean }, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    // The parser may have failed the part (a body cut inside it) while the caller's token was being looked up
    // (a PostgreSQL round trip): its 'error' has gone by, and neither 'end' nor 'error' would come again.
    const stream = file as NodeJS.ReadableStream & { errored?: unknown; destroyed?: boolean };
    if (stream.errored) return reject(stream.errored);
    if (stream.destroyed) return reject(refused({ reason: 'truncated' }));
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (v: Buffer | null) => {
      settled = true;
      resolve(v);
    };
    file.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > max) {
        chunks.length = 0;
        settle(null);
      } else chunks.push(chunk);
    });
    file.on('end', () => settled || settle(file.truncated ? null : Buffer.concat(chunks)));
    file.on('error', (e) => {
      if (settled) return;
      settled = true;
      reject(e);
    });
  });
}

/** No call nests deeper than a workflow's steps (about 6 levels); past this a JSON body is refused unread. */
const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text nests arrays/objects at most `max` deep, by a scan that never recurses: a
 * 100 000-deep body must not reach JSON.parse/stringify or any recursive walk (stack overflow → 500).
 */
export function jsonDepthWithin(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return false;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return true;
}

/** A string field (numbers as their text); anything else is absent. */
export const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;

/** uid or uids, each as one value, an array (`uids[]`) or a comma list. */
export function idList(f: Fields, single: string, plural: string): string[] {
  const raw = [f[single], f[plural], f[`${plural}[]`]].flat().filter((v) => v !== undefined && v !== null);
  return [
    ...new Set(
      raw
        .flatMap((v) => String(v).split(','))
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}
