/**
 * Browser-facing protections for the public internet (architecture §6): security headers and the
 * Content-Security-Policy through helmet (its middleware built once: @fastify/helmet rebuilt it, CSP
 * parsing included, on every response — 10–15 % of an API process's CPU under polls), HSTS on https
 * only, and the cross-site request check for cookie-authenticated state changes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { REASON } from '../../src/shared/domain/reasons.js';
import { refused } from '../errors.js';
import type { Config } from '../config.js';

/**
 * The CSP fits what the PWA really loads (all from its own origin):
 * - script-src 'wasm-unsafe-eval': pica compiles its WebAssembly resize kernels in the image worker,
 *   and onnxruntime-web its runtime (same-origin /assets/ort-wasm-*.wasm) for on-device processing;
 * - worker-src blob:: pica's tile workers are started from blob: URLs (the image worker and the
 *   service worker are same-origin files);
 * - img-src data: blob:: previews, thumbnails and results are shown from object URLs;
 * - style-src stays 'self': React sets style props through the CSSOM, which CSP does not govern;
 * - connect-src 'self': the API, the locales, samples and uploads; nothing else is fetched.
 */
const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'script-src-attr': ["'none'"],
  'worker-src': ["'self'", 'blob:'],
  'img-src': ["'self'", 'data:', 'blob:'],
  'connect-src': ["'self'"],
  'style-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'manifest-src': ["'self'"],
  'media-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} satisfies Record<string, string[]>;

const HSTS_VALUE = 'max-age=31536000';

/** Headers for answers written before any hook ran (malformed URLs): JSON only, nothing to run or frame. */
export const BARE_ERROR_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/**
 * Headers that only act on a document (framing, its opener, agent clusters, DNS prefetch, legacy
 * IE/Flash switches). A page loads ~20 build files, and on each these ~210 bytes were most of what
 * pushed the workspace's first load over its 200 KB line. The CSP and COEP stay on every
 * answer: a worker's own script answer sets the worker's policy. Only scripts, styles, wasm and JSON
 * lose them: an unknown /assets/ path answered with index.html (the SPA fallback), or an SVG, is a
 * document and keeps them all.
 */
export const DOCUMENT_ONLY_HEADERS = [
  'x-frame-options',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;
/** The build's output folders (vite: hashed assets; the lazy locale files). */
const BUILD_FILE = /^\/(assets|locales)\//;
/** What a build file may be without being a document (an SVG or HTML file there would keep every header). */
const SUBRESOURCE_TYPE = /^(application\/(javascript|json|wasm)|text\/(javascript|css))\b/;

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // HSTS only where the client really reached us over https (see below).
    strictTransportSecurity: false,
    // Results and sources are opened from the app's own pages only.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // Cross-origin isolation (COOP + COEP): SharedArrayBuffer, so onnxruntime-web runs its WASM on
    // several threads for on-device processing. Everything the PWA loads is same-origin.
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: { policy: 'require-corp' },
  });
  // Every answer, routes and not-found alike, before any handler can write (same place as the plugin's hook).
  app.addHook('onRequest', (req, reply, done) => {
    headers(req.raw, reply.raw, () => done());
  });
  // Build files (scripts, styles, wasm, locales) are never documents: the document-only headers go.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (BUILD_FILE.test(req.url) && SUBRESOURCE_TYPE.test(String(reply.getHeader('content-type') ?? '')))
      for (const name of DOCUMENT_ONLY_HEADERS) reply.raw.removeHeader(name);
    done(null, payload);
  });
  // req.protocol is 'https' on a TLS socket, or behind a trusted proxy (TRUST_PROXY) that says so.
  app.addHook('onRequest', async (req, reply) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
  });
}

/** Cookies that authenticate a browser: the account session and the workspace's token cookies. */
const CREDENTIAL_COOKIES = /(?:^|;\s*)(?:pixmill_session|user_token|guest_token|token)=[^;\s]/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** GET calls of spec §7 that change state anyway; they get the same check as a POST. */
const STATE_CHANGING_GETS = new Set(['/api/promotion/share/bind', '/api/promotion/giveaway/checkin']);
/** Signed by the payment provider, sent without cookies from its own origin. */
const EXEMPT = /^\/api\/payments\/webhook\//;

export const CROSS_SITE_TEXT = REASON.crossSite;

function originOf(value: string): string | null {
  try {
    const u = new URL(value);
    // user-info (`http://user@host`) is never in a browser's Origin or Referer: such a header is made up
    if (u.username || u.password) return null;
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * Is `origin` this server's own? With PUBLIC_URL set, only its origin is; without it, the origin of
 * the request itself: its scheme (https on TLS, or X-Forwarded-Proto from a trusted proxy) and the
 * Host it was sent to (or the forwarded host from a trusted proxy), which a browser cannot forge. An
 * https page is not the http site of the same host, nor the other way round (behind a TLS-terminating
 * proxy set PUBLIC_URL, or TRUST_PROXY so its X-Forwarded-Proto counts). An origin with user-info is
 * never own.
 */
function isOwnOrigin(
  origin: string,
  req: FastifyRequest,
  config: Pick<Config, 'publicUrl' | 'publicUrlFixed'>,
): boolean {
  const o = originOf(origin);
  if (!o) return false;
  if (config.publicUrlFixed) return o === config.publicUrl;
  // req.host is the Host header, or X-Forwarded-Host when a trusted proxy (TRUST_PROXY) sent it.
  const host = req.host?.toLowerCase();
  if (!host) return false;
  const own = originOf(`${req.protocol}://${host}`);
  return own !== null && o === own;
}

/**
 * Whether the request comes from a browser page on another site (or another origin of ours): the
 * browser names the page in Origin (every cross-origin request, every POST), else in Referer; with
 * neither, Sec-Fetch-Site (when present) decides. A request with none of the three is not a
 * browser's cross-site request (curl, the API clients, server-to-server calls) and is not foreign.
 */
function isForeignRequest(req: FastifyRequest, config: Pick<Config, 'publicUrl' | 'publicUrlFixed'>): boolean {
  const origin = req.headers.origin;
  const referer = req.headers.referer;
  if (origin !== undefined) return !isOwnOrigin(origin, req, config);
  if (referer !== undefined) return !isOwnOrigin(referer, req, config);
  const site = req.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}

/**
 * CSRF: every state-changing request a browser sends must come from our own pages, whether or not it
 * carries a credential cookie. The check once ran only with a credential cookie present, but a
 * cross-site form carries none (SameSite=Lax) and the login and register answers *set* one: a page
 * on another site could log a visitor into the attacker's account, whose workspace then bound the
 * visitor's guest uploads to it. API clients (no Origin, Referer or
 * Sec-Fetch-Site) pass untouched; the payment provider's signed webhook is exempt.
 */
export function registerCrossSiteCheck(app: FastifyInstance, config: Config): void {
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    // The matched route, not the raw URL: `/api/promotion/share/%62ind` reaches the same handler.
    const route = req.routeOptions.url ?? req.url.split('?', 1)[0]!;
    if (SAFE_METHODS.has(req.method) && !STATE_CHANGING_GETS.has(route)) return;
    if (EXEMPT.test(route)) return;
    if (!isForeignRequest(req, config)) return;
    const origin = req.headers.origin;
    const referer = req.headers.referer;
    req.log.warn(
      {
        origin: origin ?? (referer ? originOf(referer) : null),
        credentials: CREDENTIAL_COOKIES.test(req.headers.cookie ?? ''),
      },
      CROSS_SITE_TEXT,
    );
    const refusal = refused({ reason: 'crossSite' });
    return reply.status(refusal.httpStatus).send({ code: refusal.code, msg: refusal.message, data: refusal.data });
  });
}
