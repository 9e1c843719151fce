/**
 * Wraps the real global fetch for upload tests: records each request's form fields, the most requests
 * ever in flight together, and can drop one request as a network failure would.
 */
export interface Recorded {
  path: string;
  fields: Record<string, string>;
}

export function recordFetch(opts: { failWhen?: (r: Recorded) => boolean } = {}) {
  const real = globalThis.fetch;
  const log: Recorded[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const perPath = new Map<string, { now: number; max: number }>();
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = init?.body;
    const fields: Record<string, string> = {};
    if (body instanceof FormData)
      for (const [k, v] of body.entries()) fields[k] = typeof v === 'string' ? v : `<${v.size} bytes>`;
    else if (body instanceof URLSearchParams) for (const [k, v] of body.entries()) fields[k] = v;
    const rec = { path: new URL(String(input instanceof Request ? input.url : input)).pathname, fields };
    log.push(rec);
    if (opts.failWhen?.(rec)) {
      opts.failWhen = undefined;
      throw new TypeError('fetch failed');
    }
    const p = perPath.get(rec.path) ?? { now: 0, max: 0 };
    perPath.set(rec.path, p);
    inFlight++;
    p.now++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    p.max = Math.max(p.max, p.now);
    try {
      // The answer is read here so "in flight" covers the whole exchange.
      const res = await real(input, init);
      const body = await res.arrayBuffer();
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    } finally {
      inFlight--;
      p.now--;
    }
  };
  return {
    log,
    maxInFlight: () => maxInFlight,
    /** the most requests to one path that were in flight together */
    maxInFlightFor: (path: string) => perPath.get(path)?.max ?? 0,
    slices: () => log.filter((r) => r.path === '/api/v2/upload_slice'),
    restore: () => void (globalThis.fetch = real),
  };
}
