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
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = init?.body;
    const fields: Record<string, string> = {};
    if (body instanceof FormData) for (const [k, v] of body.entries()) fields[k] = typeof v === 'string' ? v : `<${v.size} bytes>`;
    else if (body instanceof URLSearchParams) for (const [k, v] of body.entries()) fields[k] = v;
    const rec = { path: new URL(String(input instanceof Request ? input.url : input)).pathname, fields };
    log.push(rec);
    if (opts.failWhen?.(rec)) {
      opts.failWhen = undefined;
      throw new TypeError('fetch failed');
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      return await real(input, init);
    } finally {
      inFlight--;
    }
  };
  return {
    log,
    maxInFlight: () => maxInFlight,
    slices: () => log.filter((r) => r.path === '/api/v2/upload_slice'),
    restore: () => void (globalThis.fetch = real),
  };
}
