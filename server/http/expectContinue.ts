/**
 * `Expect: 100-continue`: a client asks whether to send its body before sending it. Node answers
 * `100 Continue` to every such request on its own, so a 99 MB upload was invited before anything
 * looked at its size. Here the declared Content-Length is held to the most the call can take (an
 * upload: the largest plan's file; a slice: one slice; any other call: the body limit) and a body over
 * it is refused at once with 413 (bodyTooLarge) and the connection closed, its bytes never sent. When
 * the upload's site token is in the query or a cookie, the caller's own plan limit counts instead
 * (fileTooLarge with the plan's max, as the route would answer). A body within it is invited and handed
 * to Fastify as usual, where the plan limit is checked from Content-Length as soon as the token field
 * is read (routes/uploads.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { CHUNK_SIZE_BYTES } from '../../src/shared/domain/constants.js';
import { refused, type ApiError } from '../errors.js';
import { fileTooLarge } from '../services/sizeRefusals.js';
import { CLIENT_THUMB_MAX_BYTES } from '../repositories/imageRepository.js';
import { BARE_ERROR_HEADERS } from './security.js';

/** Fields and part headers besides the file and its thumbnail. */
const MULTIPART_ALLOWANCE = CLIENT_THUMB_MAX_BYTES + 64 * 1024;

/** The largest body a call takes, by path: multipart calls their file (+ allowance), others `bodyLimit`. */
function largestBody(path: string, maxUploadBytes: number, bodyLimit: number): number {
  if (path === '/api/v2/upload_slice') return CHUNK_SIZE_BYTES + MULTIPART_ALLOWANCE;
  if (path === '/web_api/v1/upload' || path === '/api/v1/process') return maxUploadBytes + MULTIPART_ALLOWANCE;
  return bodyLimit;
}

/** The site token a raw request carries in its query (user_token, guest_token_v2, token) or cookies (user_token, guest_token). */
function rawSiteToken(req: IncomingMessage): string | undefined {
  const q = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
  for (const n of ['user_token', 'guest_token_v2', 'token']) {
    const v = q.get(n);
    if (v) return v;
  }
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if ((k === 'user_token' || k === 'guest_token') && v.join('=')) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/** The largest file a site token's plan may upload whole, or undefined when the token is unknown. */
export type PlanFileMax = (token: string) => Promise<number | undefined>;

export function registerExpectContinue(
  app: FastifyInstance,
  maxUploadBytes: number,
  bodyLimit: number,
  planFileMax?: PlanFileMax,
): void {
  const server = app.server;
  // Fastify's own request handler: with a checkContinue listener Node no longer emits 'request' for these.
  const [handle] = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (!handle) throw new Error('expectContinue: register after Fastify created its server');
  const refuse = (res: ServerResponse, refusal: ApiError) => {
    const body = JSON.stringify({ code: refusal.code, msg: refusal.message, data: refusal.data });
    res.shouldKeepAlive = false;
    res.writeHead(refusal.httpStatus, {
      ...BARE_ERROR_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    res.end(body);
  };
  const invite = (req: IncomingMessage, res: ServerResponse) => {
    res.writeContinue();
    handle(req, res);
  };
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    const declared = Number(req.headers['content-length']);
    if (!Number.isFinite(declared)) return invite(req, res);
    if (declared > largestBody(path, maxUploadBytes, bodyLimit))
      return refuse(res, refused({ reason: 'bodyTooLarge' }, 413));
    const token = path === '/web_api/v1/upload' && planFileMax ? rawSiteToken(req) : undefined;
    if (!token) return invite(req, res);
    void planFileMax!(token)
      .catch(() => undefined)
      .then((max) =>
        max !== undefined && declared > max + MULTIPART_ALLOWANCE ? refuse(res, fileTooLarge(max)) : invite(req, res),
      );
  });
}
