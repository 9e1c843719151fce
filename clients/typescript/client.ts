/**
 * The Pixmill API from TypeScript: a thin fetch wrapper over the generated operation table
 * (pixmill.gen.ts, from the OpenAPI document). One call, `api.call(operationId, fields)`: the method,
 * path and body type come from the document; fields and answers are typed per operation. No
 * dependencies (Node 18+ or a browser: fetch, FormData, Blob).
 *
 *   const api = createClient({ baseUrl: 'https://pixmill.example', apiKey: process.env.PIXMILL_API_KEY });
 *   const out = await api.call('postProcess', { file: new Blob([bytes]), feature: 'enlarge', scale: 2 });
 *   if (out.kind === 'file') await writeFile('enlarged.jpg', Buffer.from(out.bytes));
 *   out.header('X-Credits-Left'); // a number: the headers the document declares are typed
 *
 * A refusal throws PixmillError with the HTTP status, the envelope's code and msg, and data.reason /
 * data.field (the stable reason code to switch on).
 */
import {
  OPERATIONS,
  RESPONSE_HEADERS,
  type FileAnswer,
  type HeaderOf,
  type JsonAnswer,
  type OperationId,
  type Operations,
  type RefusalHeaders,
} from './pixmill.gen.js';

export * from './pixmill.gen.js';

export interface ClientOptions {
  /** the server, e.g. https://pixmill.example (the document's paths are joined to it) */
  baseUrl: string;
  /** an API token, sent as X-Api-Key on the calls that take one (the document says which) */
  apiKey?: string;
  /** another fetch (tests, proxies) */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** more headers, e.g. Idempotency-Key */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A header's value: what the document declares it as (RESPONSE_HEADERS). */
type HeaderValue = string | number | boolean;

/**
 * Reads the headers the document declares as their types: integers as numbers, `true`/`false` as booleans,
 * the rest as text; undefined when the answer has none (or a number or boolean header holds something else).
 */
function readDeclared(headers: Headers): (name: string) => HeaderValue | undefined {
  return (name) => {
    const raw = headers.get(name);
    if (raw === null) return undefined;
    switch (RESPONSE_HEADERS[name as keyof typeof RESPONSE_HEADERS]) {
      case 'number':
        return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
      case 'boolean':
        return raw === 'true' ? true : raw === 'false' ? false : undefined;
      default:
        return raw;
    }
  };
}

/** A refusal: the HTTP status and the envelope ({code, msg, data}), data.reason and data.field. */
export class PixmillError extends Error {
  readonly reason?: string;
  readonly field?: string;
  /** a header refusals declare, typed: `err.header('Retry-After')` is the seconds to wait after a 429 */
  readonly header: HeaderOf<RefusalHeaders>;
  constructor(
    readonly status: number,
    readonly code: number,
    msg: string,
    readonly data: unknown,
    readonly headers: Headers,
  ) {
    super(msg);
    const d = (data ?? {}) as { reason?: unknown; field?: unknown };
    if (typeof d.reason === 'string') this.reason = d.reason;
    if (typeof d.field === 'string') this.field = d.field;
    this.header = readDeclared(headers) as HeaderOf<RefusalHeaders>;
  }
}

type Value = string | number | boolean | Blob | object | null | undefined;

/** A field as form text: objects (a jconfig) as JSON. */
const text = (v: Exclude<Value, Blob>) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

/** The file name Content-Disposition gives (its UTF-8 form first). */
function filenameOf(h: string | null): string | undefined {
  if (!h) return undefined;
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(h);
  if (utf8) return decodeURIComponent(utf8[1]!);
  return /filename="([^"]*)"/i.exec(h)?.[1];
}

export function createClient(opts: ClientOptions) {
  const doFetch = opts.fetch ?? globalThis.fetch;
  const base = opts.baseUrl.replace(/\/+$/, '');

  /** Calls one operation with its fields; answers its data (JSON) or its file, or throws PixmillError. */
  async function call<K extends OperationId>(
    id: K,
    fields: Operations[K]['fields'],
    options: CallOptions = {},
  ): Promise<Operations[K]['answer']> {
    const op = OPERATIONS[id];
    const entries = Object.entries(fields as Record<string, Value>).filter(([, v]) => v !== undefined && v !== null);
    // the key goes only to the calls that take it: the others refuse a request that carries an API token
    const headers: Record<string, string> = {
      ...(opts.apiKey && op.apiKey ? { 'x-api-key': opts.apiKey } : {}),
      ...options.headers,
    };
    const url = new URL(base + op.path);
    let body: FormData | URLSearchParams | string | undefined;
    if (op.body === 'query') {
      for (const [k, v] of entries) url.searchParams.set(k, text(v as Exclude<Value, Blob>));
    } else if (entries.some(([, v]) => v instanceof Blob) || (op.body === 'multipart' && !op.json)) {
      const form = new FormData();
      // text fields first: the server checks the token and the fields before it reads a file
      for (const [k, v] of entries) if (!(v instanceof Blob)) form.set(k, text(v as Exclude<Value, Blob>));
      for (const [k, v] of entries) if (v instanceof Blob) form.set(k, v, (v as File).name || 'upload');
      body = form;
    } else if (op.json) {
      body = JSON.stringify(Object.fromEntries(entries));
      headers['content-type'] = 'application/json';
    } else {
      body = new URLSearchParams(entries.map(([k, v]): [string, string] => [k, text(v as Exclude<Value, Blob>)]));
    }
    const res = await doFetch(url, { method: op.method, headers, body, signal: options.signal });
    const type = res.headers.get('content-type') ?? '';
    if (!type.startsWith('application/json')) {
      if (!res.ok) throw new PixmillError(res.status, 0, `HTTP ${res.status}`, null, res.headers);
      const file: FileAnswer<Record<string, HeaderValue>> = {
        kind: 'file',
        status: 200,
        bytes: await res.arrayBuffer(),
        type,
        headers: res.headers,
        header: readDeclared(res.headers),
      };
      const filename = filenameOf(res.headers.get('content-disposition'));
      if (filename !== undefined) file.filename = filename;
      return file as Operations[K]['answer'];
    }
    const envelope = (await res.json()) as { code: number; msg: string; data: unknown };
    if (envelope.code !== 200)
      throw new PixmillError(res.status, envelope.code, envelope.msg, envelope.data, res.headers);
    const answer: JsonAnswer<unknown, number, Record<string, HeaderValue>> = {
      kind: 'json',
      status: res.status,
      data: envelope.data,
      headers: res.headers,
      header: readDeclared(res.headers),
    };
    return answer as Operations[K]['answer'];
  }

  return { call };
}

export type PixmillClient = ReturnType<typeof createClient>;
