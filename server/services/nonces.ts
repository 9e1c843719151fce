/** Site ajax nonces (spec §7): the issue time and an HMAC bound to the session, valid for a day. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { serverSecret } from '../repositories/secrets.js';
import type { ServiceBase } from './base.js';

/** A site ajax nonce stays valid this long (like a WordPress nonce's day). */
const NONCE_TTL_MS = 24 * 60 * 60 * 1000;

/** An HMAC of `message` under the server secret, shortened to 32 characters (nonces, mail links). */
export function serverSignature(dataDir: string, message: string): string {
  return createHmac('sha256', serverSecret(dataDir)).update(message).digest('base64url').slice(0, 32);
}

/** Constant-time comparison of two signatures (false on any length difference). */
export function sameSignature(got: unknown, want: string): boolean {
  if (typeof got !== 'string' || got.length !== want.length) return false;
  return timingSafeEqual(Buffer.from(got), Buffer.from(want));
}

export class NonceService {
  constructor(private readonly deps: ServiceBase) {}

  /** The nonce for a session (or for "anonymous" without one). */
  issue(sessionId: string | undefined, now = Date.now()): string {
    const ts = now.toString(36);
    return `${ts}.${this.sig(ts, sessionId)}`;
  }

  check(nonce: unknown, sessionId: string | undefined, now = Date.now()): boolean {
    if (typeof nonce !== 'string' || nonce.length > 100) return false;
    const [ts, sig] = nonce.split('.');
    if (!ts || !sig) return false;
    const issued = parseInt(ts, 36);
    if (!Number.isFinite(issued) || issued > now + 60_000 || now - issued > NONCE_TTL_MS) return false;
    return sameSignature(sig, this.sig(ts, sessionId));
  }

  private sig(ts: string, sessionId: string | undefined): string {
    return serverSignature(this.deps.config.dataDir, `site-ajax|${ts}|${sessionId ?? 'anonymous'}`);
  }
}
