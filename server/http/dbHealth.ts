/**
 * Answers 503 "Service temporarily unavailable" while the database (or, in scale-out mode, the
 * queue's Redis) cannot be reached, instead of a 500: clients retry and nothing is lost. Service
 * returns by itself once the pool reconnects; no state is kept here.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REASON, type RefusalData } from '../../src/shared/domain/reasons.js';

const UNAVAILABLE_CODE = 503;
const UNAVAILABLE_MSG = REASON.serviceUnavailable;
/** seconds a client should wait before retrying */
const RETRY_AFTER_S = 2;

/** Network-level errors of a pool client (pg, ioredis) talking to a service that went away. */
const NET_CODES = new Set([
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_WRITE_AFTER_END',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'SQLITE_BUSY',
]);
/** PostgreSQL SQLSTATEs that mean "not now" rather than "wrong request". */
const PG_STATES = /^(08\d{3}|57P0[1-3]|53300|53400)$/;
const MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /client has encountered a connection error/i,
  /connection is closed/i,
  /stream isn't writeable/i,
  /reached the max retries per request/i,
  /query read timeout/i,
  /not queryable/i,
  /socket has been ended/i,
  /write after end/i,
  /the database system is (starting up|shutting down)/i,
];

/** True when the error says a backing service is unreachable (so the request may simply be retried). */
export function isServiceUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NET_CODES.has(e.code) || PG_STATES.test(e.code))) return true;
  if (typeof e.message === 'string' && MESSAGES.some((re) => re.test(e.message as string))) return true;
  // AggregateError (happy-eyeballs connect) and wrapped causes
  if (Array.isArray(e.errors) && e.errors.some((x) => isServiceUnavailable(x, depth + 1))) return true;
  return isServiceUnavailable(e.cause, depth + 1);
}

function unavailableBody() {
  return { code: UNAVAILABLE_CODE, msg: UNAVAILABLE_MSG, data: { reason: 'serviceUnavailable' } satisfies RefusalData };
}

/**
 * For the app's error handler: sends the 503 envelope and returns true when `err` means a backing
 * service is away. One line at the top of the handler: `if (replyIfUnavailable(err, req, reply)) return reply;`
 */
export function replyIfUnavailable(err: unknown, req: FastifyRequest, reply: FastifyReply): boolean {
  if (!isServiceUnavailable(err)) return false;
  const e = err as { message?: string; code?: string };
  req.log.warn({ err: { message: e.message, code: e.code } }, 'backing service unavailable');
  void reply.status(503).header('retry-after', String(RETRY_AFTER_S)).send(unavailableBody());
  return true;
}
