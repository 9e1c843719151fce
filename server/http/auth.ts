/** Finding the caller's token in a request and resolving it to a Principal. */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Principal } from '../services/tokens.js';

const FIELDS = ['user_token', 'guest_token_v2', 'token'] as const;
const COOKIES = ['user_token', 'guest_token'] as const;

function pick(src: unknown, names: readonly string[]): string | undefined {
  if (!src || typeof src !== 'object') return undefined;
  for (const n of names) {
    const v = (src as Record<string, unknown>)[n];
    if (typeof v === 'string' && v) return v;
  }
  return undefined;
}

/** Body first, then query string, then cookies (links such as <img src> and downloads carry cookies). */
export function tokenOf(req: FastifyRequest, names: readonly string[] = FIELDS): string | undefined {
  return pick(req.body, names) ?? pick(req.query, names) ?? pick(req.cookies, COOKIES);
}

export function principalOf(req: FastifyRequest, ctx: AppContext, names?: readonly string[]): Promise<Principal> {
  return ctx.services.tokens.resolve(tokenOf(req, names));
}
