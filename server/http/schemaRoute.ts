/**
 * Registers a route from its schema (src/shared/schemas/): the schema becomes Fastify's validation of the
 * request fields and the route's OpenAPI operation (@fastify/swagger), and the handler receives the
 * fields checked and typed. Fields may arrive in the query, a urlencoded/JSON body or multipart fields
 * (merged by fieldsOf before Fastify validates them), or only in the body for `from: 'body'` routes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler, RouteOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import {
  Envelope,
  ERROR_ENVELOPE_REF,
  type ResponseHeader,
  type RouteSchema,
} from '../../src/shared/schemas/common.js';
import { bodyOf, fieldsOf } from './params.js';
import { compileCheck, schemaRefusal, type Checker } from '../services/fieldCheck.js';
import { validatorCompiler } from './validation.js';

export interface RouteExtras {
  /** requests per client address and window (@fastify/rate-limit), also stated in the docs */
  rateLimit?: { max: number; timeWindow: string };
  logLevel?: RouteOptions['logLevel'];
  /**
   * The caller's check (e.g. principalOf) run before a schema failure is answered: a request without
   * a live token learns nothing about the fields (401 first, as when the fields are right).
   */
  authenticate?: (req: FastifyRequest) => Promise<unknown>;
}

export type FieldsHandler<F extends TObject> = (
  fields: Static<F>,
  req: FastifyRequest,
  reply: FastifyReply,
) => Promise<unknown>;

const NO_FIELDS = Type.Object({});
/** Bodies a call takes: forms and JSON (multipart form fields are taken too, as the document's head says). */
const FORM_TYPES = ['application/x-www-form-urlencoded', 'application/json'];
const binary = { type: 'string', format: 'binary' } as const;

/**
 * A field whose schema names a shared schema of the document (`x-schema`, e.g. jconfig's JobConfig) is
 * documented as that schema, or its JSON text; the server checks the decoded value against the same
 * schema itself (server/services/jobConfigSchema.ts), so the route's own check only takes text or an object.
 */
function documentedField(s: Record<string, unknown>): Record<string, unknown> {
  const name = s['x-schema'];
  if (typeof name !== 'string') return s;
  const ref = { $ref: `#/components/schemas/${name}` };
  return {
    description: s.description,
    anyOf: [
      ref,
      {
        type: 'string',
        contentMediaType: 'application/json',
        contentSchema: ref,
        description: `${name} as JSON text (form and multipart bodies)`,
      },
    ],
  };
}

/** A documented body without its file parts (what a form or JSON body of a call that takes a file or a URL carries). */
function withoutFiles(fields: TObject, spec: RouteSchema): TObject {
  const names = Object.keys(spec.files ?? {});
  const f = fields as unknown as { properties: Record<string, unknown>; examples?: unknown[] };
  const properties = Object.fromEntries(Object.entries(f.properties).filter(([k]) => !names.includes(k)));
  const examples = f.examples?.map((e) =>
    Object.fromEntries(Object.entries(e as Record<string, unknown>).filter(([k]) => !names.includes(k))),
  );
  return { ...fields, properties, ...(examples ? { examples } : {}) } as unknown as TObject;
}

/** The fields schema with the route's example attached (per field for the query parameters, whole for bodies). */
function documented(spec: RouteSchema): TObject | undefined {
  const { fields, example, files } = spec;
  if (!fields && !files) return undefined;
  const base = fields ?? NO_FIELDS;
  const ex = (example ?? {}) as Record<string, unknown>;
  const properties: Record<string, unknown> = {};
  for (const [k, raw] of Object.entries(base.properties as Record<string, Record<string, unknown>>)) {
    const s = documentedField(raw);
    properties[k] = k in ex ? { ...s, examples: [ex[k]] } : s;
  }
  for (const [k, f] of Object.entries(files ?? {})) properties[k] = { ...binary, description: f.description };
  const required = [
    ...(base.required ?? []),
    ...Object.entries(files ?? {})
      .filter(([, f]) => f.required)
      .map(([k]) => k),
  ];
  // A multipart example names its file parts too (their bytes stand in as text), so it conforms to the body.
  const whole =
    example && files
      ? {
          ...Object.fromEntries(
            Object.entries(files)
              .filter(([, f]) => f.required)
              .map(([k]) => [k, '(the file’s bytes)']),
          ),
          ...example,
        }
      : example;
  return {
    ...base,
    properties,
    ...(required.length ? { required } : {}),
    ...(whole ? { examples: [whole] } : {}),
  } as unknown as TObject;
}

/**
 * The operation's id: the method and the words of the path after its API prefix (`POST
 * /web_api/v1/transform` → `postTransform`, `GET /api/v2/download/all/` → `getDownloadAll`); a further
 * path of the same call (the spec's trailing-slash forms) adds `Alias`. Stable: it depends on the route alone.
 */
function operationIdOf(method: string, url: string, alias = false): string {
  const words = url
    .replace(/^\/(web_api\/v\d+|api\/v\d+|api)(?=\/|$)/, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return `${method.toLowerCase()}${words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}${alias ? 'Alias' : ''}`;
}

/** A reference to the document's one ErrorEnvelope. */
const errorAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: ERROR_ENVELOPE_REF } } },
});

/** Field names that look a row up by id: a call taking one may answer 404 (another account's id answers the same). */
const ID_FIELDS = /^(uid|uids|trans_id|trans_ids|id|ids|download_all_id)$/;

/**
 * The error answers a call may give, by HTTP status, from what it takes: every call refuses a malformed
 * request (400); a call that needs a token answers 401 without one; a POST is refused from another site's
 * page (403) and over its body limits (413, 415); a call that looks up ids answers 404; a rate-limited
 * call or one an API token makes answers 429. Parameter errors of the spec answer HTTP 200 with their code.
 */
function errorStatuses(spec: RouteSchema, extras: RouteExtras = {}): Record<number, string> {
  const out: Record<number, string> = {
    400: 'A malformed request: a URL, body or parameter the server cannot read (data.reason says which)',
  };
  const needsToken = spec.auth.length > 0 && !spec.auth.some((a) => Object.keys(a).length === 0);
  if (needsToken) out[401] = 'No valid token, or a token this call does not take (code 6, reason unauthorized)';
  if (spec.method === 'POST') out[403] = 'A browser page of another site sent it (cross-site request refused)';
  if (spec.params || Object.keys(spec.fields?.properties ?? {}).some((n) => ID_FIELDS.test(n)))
    out[404] = 'No such item of the caller’s (another account’s id answers the same)';
  if (spec.method === 'POST') {
    out[413] = 'The body, a file or a form field is larger than the call takes';
    out[415] = 'A body of a content type the call does not read';
  }
  if (extras.rateLimit || spec.auth.some((a) => 'api_token' in a))
    out[429] = 'Too many requests: wait Retry-After seconds (reason rateLimited)';
  return out;
}

/** The rate-limit headers: every answer to an API key's call, and every answer of a rate-limited call. */
const RATE_HEADERS: Readonly<Record<string, ResponseHeader>> = {
  'X-RateLimit-Limit': { description: 'requests the window allows', type: 'integer' },
  'X-RateLimit-Remaining': { description: 'requests left in this window', type: 'integer' },
  'X-RateLimit-Reset': { description: 'seconds until the window starts again', type: 'integer' },
};
const RETRY_AFTER: Readonly<Record<string, ResponseHeader>> = {
  'Retry-After': { description: 'seconds to wait before the next request', type: 'integer' },
};

/** The response headers of one status: the route's own, the rate limit's where it applies, Retry-After on 429. */
function headersOf(spec: RouteSchema, extras: RouteExtras, status: number | 'default') {
  const limited = !!extras.rateLimit || spec.auth.some((a) => 'api_key' in a);
  const all: Record<string, ResponseHeader> = {
    ...(limited ? RATE_HEADERS : {}),
    ...(status === 429 || (status === 'default' && limited) ? RETRY_AFTER : {}),
    ...(typeof status === 'number' ? (spec.headers?.[status] ?? {}) : {}),
  };
  if (!Object.keys(all).length) return {};
  return {
    headers: Object.fromEntries(
      Object.entries(all).map(([name, h]) => [name, { type: h.type, description: h.description }]),
    ),
  };
}

/** The OpenAPI part of a route (tags, summary, security, request and responses) for @fastify/swagger. */
export function openApiSchema(spec: RouteSchema, extras: RouteExtras = {}, url = spec.url): Record<string, unknown> {
  const limit = extras.rateLimit
    ? `At most ${extras.rateLimit.max} requests per ${extras.rateLimit.timeWindow} per client address.`
    : '';
  const alias = url !== spec.url;
  const aliasNote = alias ? `The same call as ${spec.method} ${spec.url}.` : '';
  const description = [aliasNote, spec.description, limit].filter(Boolean).join('\n\n') || undefined;
  const fields = documented(spec);
  // The spec answers its parameter errors (code 10001, 10012, …) with HTTP 200 too: a 200 is the success or the refusal's envelope.
  const refusal = { $ref: ERROR_ENVELOPE_REF };
  const ok = spec.file
    ? {
        description: `${spec.file.description}; a refusal answers its envelope (application/json)`,
        content: {
          ...Object.fromEntries(spec.file.types.map((t) => [t, { schema: binary }])),
          // a JSON file (the OpenAPI document) is that JSON, not the envelope
          'application/json': spec.file.types.includes('application/json')
            ? { schema: { type: 'object', description: spec.file.description } }
            : { schema: refusal },
        },
      }
    : {
        description:
          'Success: code 200 and the data; or a refusal the spec answers with HTTP 200 (its code and data.reason)',
        content: { 'application/json': { schema: { anyOf: [Envelope(spec.data ?? Type.Null()), refusal] } } },
      };
  const response: Record<string | number, unknown> = { 200: { ...ok, ...headersOf(spec, extras, 200) } };
  for (const [status, text] of Object.entries(errorStatuses(spec, extras)))
    response[status] = { ...errorAnswer(text), ...headersOf(spec, extras, Number(status)) };
  for (const [status, s] of Object.entries(spec.statuses ?? {}))
    response[status] = {
      ...(Number(status) < 400
        ? { description: s.description, ...Envelope(s.data ?? Type.Null()) }
        : errorAnswer(s.description)),
      ...headersOf(spec, extras, Number(status)),
    };
  response.default = {
    ...errorAnswer(
      'An error: the spec’s code, its English text and data.reason (parameter errors answer HTTP 200 and name the field)',
    ),
    ...headersOf(spec, extras, 'default'),
  };
  // A multipart call whose file may be left out (a URL instead) takes forms and JSON too.
  const multipartOnly = Object.values(spec.files ?? {}).some((f) => f.required);
  const consumes =
    spec.from === 'multipart'
      ? multipartOnly
        ? ['multipart/form-data']
        : ['multipart/form-data', ...FORM_TYPES]
      : FORM_TYPES;
  // A file that may be left out (a URL instead): multipart carries it, forms and JSON carry the other fields only.
  const body =
    fields && spec.files && !multipartOnly
      ? {
          body: {
            content: Object.fromEntries(
              consumes.map((type) => [
                type,
                { schema: type === 'multipart/form-data' ? fields : withoutFiles(fields, spec) },
              ]),
            ),
          },
        }
      : { body: fields, consumes };
  return {
    operationId: operationIdOf(spec.method, url, alias),
    tags: [spec.tag],
    summary: spec.summary,
    ...(description ? { description } : {}),
    security: spec.auth.map((a) => ({ ...a })),
    ...(fields ? (spec.method === 'GET' ? { querystring: fields } : body) : {}),
    ...(spec.params ? { params: spec.params } : {}),
    response,
  };
}

const checkers = new WeakMap<object, Checker>();

/** Checks fields a handler read itself (multipart calls with files) against the route's schema. */
export function checkFields<F extends TObject>(spec: RouteSchema<F>, raw: Record<string, unknown>): Static<F> {
  const schema = spec.fields ?? NO_FIELDS;
  let check = checkers.get(schema);
  if (!check) checkers.set(schema, (check = compileCheck(schema)));
  const r = check(raw);
  if ('error' in r) throw schemaRefusal(r.error);
  return r.value as Static<F>;
}

/** Registers `spec` (and its aliases) on `app` with `handler`. */
export function route<F extends TObject, D extends TSchema>(
  app: FastifyInstance,
  spec: RouteSchema<F, D>,
  extras: RouteExtras,
  handler: FieldsHandler<F>,
): void;
export function route<F extends TObject, D extends TSchema>(
  app: FastifyInstance,
  spec: RouteSchema<F, D>,
  handler: FieldsHandler<F>,
): void;
export function route<F extends TObject, D extends TSchema>(
  app: FastifyInstance,
  spec: RouteSchema<F, D>,
  a: RouteExtras | FieldsHandler<F>,
  b?: FieldsHandler<F>,
): void {
  const extras = typeof a === 'function' ? {} : a;
  const handler = (typeof a === 'function' ? a : b)!;
  const from = spec.from ?? 'any';
  const part = spec.method === 'GET' ? 'query' : 'body';
  const checkedPart = spec.method === 'GET' ? 'querystring' : 'body';
  const checked = (spec.fields ?? NO_FIELDS) as TSchema;
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  for (const url of [spec.url, ...(spec.aliases ?? [])]) {
    typed.route({
      method: spec.method,
      url,
      schema: openApiSchema(spec as RouteSchema, extras, url),
      ...(extras.rateLimit ? { config: { rateLimit: extras.rateLimit } } : {}),
      ...(extras.logLevel ? { logLevel: extras.logLevel } : {}),
      // Multipart calls with files check their fields after reading them (checkFields); the others are
      // checked by Fastify against the merged record put in place of the query or body here.
      // The document's body may name shared schemas (documentedField); requests are checked against the fields themselves.
      ...(from === 'multipart'
        ? { validatorCompiler: () => () => true }
        : {
            attachValidation: true,
            validatorCompiler: (r: Parameters<FastifySchemaCompiler<TSchema>>[0]) =>
              validatorCompiler({ ...r, schema: r.httpPart === checkedPart ? checked : r.schema }),
          }),
      preValidation:
        from === 'multipart'
          ? []
          : async (req: FastifyRequest) => {
              const merged = from === 'body' ? bodyOf(req) : await fieldsOf(req);
              (req as unknown as Record<string, unknown>)[part] = merged;
            },
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        if (req.validationError) {
          if (extras.authenticate) await extras.authenticate(req);
          throw req.validationError;
        }
        return handler(
          (from === 'multipart' ? {} : (req as unknown as Record<string, unknown>)[part]) as Static<F>,
          req,
          reply,
        );
      },
    });
  }
}
