/**
 * Fastify's logger options: pino at the configured level, with every token, session, nonce and
 * signature kept out of the log (request URLs carry them as query parameters: download links,
 * <img src>, polls). Headers and bodies are never logged by the serializers; `redact` covers the
 * places where a handler or a plugin logs an object that holds them anyway.
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { DestinationStream, LevelWithSilent } from 'pino';

/** Query parameters whose values are credentials or capabilities (compared without a trailing `[]`, case-insensitively). */
const SECRET_PARAMS = new Set([
  'user_token',
  'guest_token_v2',
  'guest_token',
  'token',
  'api_token',
  'access_token',
  'sig',
  'signature',
  'nonce',
  'password',
  'download_all_id',
  'session',
  'session_id',
]);

export const REDACTED = '[REDACTED]';

/** Query keys that name a credential or a person whatever their exact spelling (api_key, x-token, email, e_mail, new_password…). */
const SECRET_KEY = /token|secret|passw|e[-_]?mail|api[-_]?key|apikey/i;

/** An e-mail address, raw or with its @ escaped, anywhere in a URL (a path segment, a value under any key). */
const EMAIL = /[^\s/?&=#]+(?:@|%40)[^\s/?&=#]+/gi;

/**
 * The URL with the value of every secret query parameter and every e-mail address replaced; the rest
 * stays readable.
 */
export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url.replace(EMAIL, REDACTED);
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawKey = eq < 0 ? pair : pair.slice(0, eq);
      let key = rawKey;
      try {
        key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
      } catch {
        /* a malformed escape: judge the raw text */
      }
      key = key.trim().toLowerCase().replace(/\[\]$/, '');
      if (eq >= 0 && (SECRET_PARAMS.has(key) || SECRET_KEY.test(key))) return `${rawKey}=${REDACTED}`;
      return pair.replace(EMAIL, REDACTED);
    });
  return `${url.slice(0, q).replace(EMAIL, REDACTED)}?${params.join('&')}`;
}

/** Paths pino blanks wherever they appear in a logged object. */
const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["stripe-signature"]',
  'req.body',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'body',
  ...[...SECRET_PARAMS, 'email'].flatMap((k) => [k, `*.${k}`]),
];

export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  if (level === 'silent' && !stream) return false;
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      // Fastify's own request serializer, with the URL masked.
      req(req: FastifyRequest) {
        return {
          method: req.method,
          url: maskUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        };
      },
    },
  };
}

/**
 * The log level of a route polled every few seconds by every open tab (progress): its per-request
 * lines would drown the log at `info`, so it logs from `warn` up; a `debug`/`trace` level configured
 * for a diagnosis, or a quieter one, stays as configured.
 */
export function pollLogLevel(level: string): LevelWithSilent {
  return level === 'info' ? 'warn' : (level as LevelWithSilent);
}
