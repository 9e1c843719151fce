/**
 * Which methods a path answers, for the not-found handler (app.ts): a request whose path a call has,
 * with a method that call does not take, answers 405 with an Allow header instead of 404, and neither
 * depends on the credentials the request carries. Routes are recorded as they are registered.
 */
import type { FastifyInstance } from 'fastify';

interface Known {
  pattern: RegExp;
  methods: Set<string>;
}

const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** A Fastify route URL as a regular expression over request paths (`:name` one segment, `*` the rest). */
export function routePattern(url: string): RegExp {
  const body = url
    .split('/')
    .map((seg) => (seg === '*' ? '.*' : seg.startsWith(':') ? '[^/]+' : escape(seg).replace(/\\\*$/, '.*')))
    .join('/');
  return new RegExp(`^${body}$`);
}

/** Starts recording `app`'s routes (call before any route is added); answers the methods a path takes. */
export function recordRouteMethods(app: FastifyInstance): (path: string) => string[] {
  const byUrl = new Map<string, Known>();
  app.addHook('onRoute', (r) => {
    const known = byUrl.get(r.url) ?? { pattern: routePattern(r.url), methods: new Set<string>() };
    for (const m of Array.isArray(r.method) ? r.method : [r.method]) known.methods.add(m);
    byUrl.set(r.url, known);
  });
  return (path) => {
    const methods = new Set<string>();
    for (const k of byUrl.values()) if (k.pattern.test(path)) for (const m of k.methods) methods.add(m);
    return [...methods].sort();
  };
}
