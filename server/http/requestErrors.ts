/**
 * Refusals of malformed requests, each with its own HTTP status and reason (src/shared/domain/reasons.ts)
 * in the {code, msg, data} envelope (code 10001): bad URLs, bodies that do not parse, bodies and forms over a limit. The
 * Fastify error handler (server/app.ts) and the multipart reader (params.ts) both map through here,
 * so a broken request never becomes a 500 and never a vague "parameter error".
 */
import type { Reason } from '../../src/shared/domain/reasons.js';
import { ApiError, refused } from '../errors.js';
import { schemaRefusal } from '../services/fieldCheck.js';
import { validationFieldError } from './validation.js';

/** A malformed request's refusal: its reason, with the catalogue's status unless the request's own is given. */
const refuse = (reason: Reason, status?: number) => refused({ reason }, status);

/**
 * A body refused for its size before it was read (its Content-Length is over the limit) is still
 * read to its end and thrown away when it is at most this large, so a client that sends its whole
 * body before it reads the answer (fetch, curl) gets the 413 and can reuse the connection; Fastify
 * closes the connection, and a client still sending then only sees a reset (EPIPE). A larger or
 * unsized (chunked) body is cut off as before: nobody is owed 10 MB of reading for a refusal.
 */
export const REFUSED_BODY_READ_BYTES = 10 * 1024 * 1024;

/** Whether the refused request's body is small enough to read to its end (see REFUSED_BODY_READ_BYTES). */
export function readRefusedBody(err: unknown, contentLength: string | undefined): boolean {
  if (
    (err as { code?: unknown } | null)?.code !== 'FST_ERR_CTP_BODY_TOO_LARGE' ||
    !contentLength ||
    !/^\d+$/.test(contentLength)
  )
    return false;
  return Number(contentLength) <= REFUSED_BODY_READ_BYTES;
}

/** Fastify, @fastify/multipart and body-parser error codes → the refusal they mean. */
const BY_CODE: Record<string, [number, Reason]> = {
  FST_ERR_BAD_URL: [400, 'badUrl'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'badUrl'],
  FST_REQ_FILE_TOO_LARGE: [413, 'fileTooLarge'],
  FST_FILES_LIMIT: [413, 'tooManyFiles'],
  FST_FIELDS_LIMIT: [413, 'tooManyFields'],
  FST_PARTS_LIMIT: [413, 'tooManyParts'],
  FST_PROTO_VIOLATION: [400, 'badFieldName'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [400, 'multipartExpected'],
  FST_INVALID_JSON_FIELD_ERROR: [400, 'badJsonField'],
  FST_MP_PREMATURE_CLOSE: [400, 'truncated'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'bodyTooLarge'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupportedType'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'badContentLength'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'emptyJson'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'badJson'],
};

/** busboy's parse errors carry no code; their texts are stable. */
const BY_MESSAGE: Array<[RegExp, number, Reason]> = [
  [/boundary not found|boundary required/i, 400, 'noBoundary'],
  [/unexpected end of (multipart data|form|file)|terminated early/i, 400, 'truncated'],
  [/malformed (part )?header|malformed urlencoded|multipart/i, 400, 'badMultipart'],
  [/unsupported content type|missing content-type/i, 400, 'multipartExpected'],
];

/**
 * The refusal for a request-level error, or null when `err` is not one (a fault of ours stays a 500).
 * `inBody`: the error came out of reading a request body, so an uncoded parse error is the sender's.
 */
export function requestRefusal(err: unknown, inBody = false): ApiError | null {
  if (err instanceof ApiError) return err;
  if (!err || typeof err !== 'object') return null;
  const e = err as { code?: unknown; statusCode?: unknown; message?: unknown; name?: unknown; validation?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const hit = BY_CODE[code];
  if (hit) return refuse(hit[1], hit[0]);
  // A field that fails its route schema: a parameter error like any other (HTTP 200), naming the field.
  const fieldError = e.validation ? validationFieldError(e) : null;
  if (fieldError) return schemaRefusal(fieldError);
  if (e.validation) return refuse('badRequest', 400);
  const status = typeof e.statusCode === 'number' ? e.statusCode : 0;
  const message = typeof e.message === 'string' ? e.message : '';
  if (status === 429) return refuse('rateLimited', 429);
  if (status === 413) return refuse('bodyTooLarge', 413);
  // A JSON body that does not parse (secure-json-parse's SyntaxError, status 400 set by the parser).
  if (e.name === 'SyntaxError' && status === 400) return refuse('badJson', 400);
  if (inBody || (status >= 400 && status < 500)) {
    for (const [re, s, reason] of BY_MESSAGE) if (re.test(message)) return refuse(reason, s);
  }
  if (status >= 400 && status < 500) return refuse('badRequest', status);
  if (inBody && !code && !status) return refuse('badMultipart', 400);
  return null;
}
