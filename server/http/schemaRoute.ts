/**
 * Registers a route from its schema (src/shared/schemas/): the schema becomes Fastify's validation of the
 * request fields and the route's OpenAPI operation (@fastify/swagger), and the handler receives the
 * fields checked and typed. Fields may arrive in the query, a urlencoded/JSON body or multipart fields
 * (merged by fieldsOf before Fastify validates them), or only in the body for `from: 'body'` routes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { Envelope, ErrorEnvelope, type RouteSchema } from '../../src/shared/schemas/common.js';
import { bodyOf, fieldsOf } from './params.js';
import { compileCheck, schemaRefusal, type Checker } from './validation.js';

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

export type FieldsHandler<F extends TObject> = (fields: Static<F>, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const NO_FIELDS = Type.Object({});
/** Bodies a call takes: forms and JSON (multipart form fields are taken too, as the document's head says). */
const FORM_TYPES = ['application/x-www-form-urlencoded', 'application/json'];
const binary = { type: 'string', format: 'binary' } as const;

/** The fields schema with the route's example attached (per field for the query parameters, whole for bodies). */
function documented(spec: RouteSchema): TObject | undefined {
  const { fields, example, files } = spec;
  if (!fields && !files) return undefined;
  const base = fields ?? NO_FIELDS;
  const ex = (example ?? {}) as Record<string, unknown>;
  const properties: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(base.properties as Record<string, object>)) properties[k] = k in ex ? { ...s, examples: [ex[k]] } : s;
  for (const [k, f] of Object.entries(files ?? {})) properties[k] = { ...binary, description: f.description };
  const required = [...(base.required ?? []), ...Object.entries(files ?? {}).filter(([, f]) => f.required).map(([k]) => k)];
  return { ...base, properties, ...(required.length ? { required } : {}), ...(example ? { examples: [example] } : {}) } as unknown as TObject;
}

/** The OpenAPI part of a route (tags, summary, security, request and responses) for @fastify/swagger. */
export function openApiSchema(spec: RouteSchema, extras: RouteExtras = {}): Record<string, unknown> {
  const limit = extras.rateLimit ? `At most ${extras.rateLimit.max} requests per ${extras.rateLimit.timeWindow} per client address.` : '';
  const description = [spec.description, limit].filter(Boolean).join('\n\n') || undefined;
  const fields = documented(spec);
  const error = { description: 'An error: the spec’s code and text in the envelope (parameter errors name the field)', ...ErrorEnvelope };
  const ok = spec.file
    ? { description: spec.file.description, content: Object.fromEntries(spec.file.types.map((t) => [t, { schema: binary }])) }
    : { description: 'Success: code 200 and the data', ...Envelope(spec.data ?? Type.Null()) };
  return {
    tags: [spec.tag],
    summary: spec.summary,
    ...(description ? { description } : {}),
    security: spec.auth.map((a) => ({ ...a })),
    ...(fields ? (spec.method === 'GET' ? { querystring: fields } : { body: fields, consumes: spec.from === 'multipart' ? ['multipart/form-data'] : FORM_TYPES }) : {}),
    ...(spec.params ? { params: spec.params } : {}),
    response: { 200: ok, default: error },
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
export function route<F extends TObject, D extends TSchema>(app: FastifyInstance, spec: RouteSchema<F, D>, extras: RouteExtras, handler: FieldsHandler<F>): void;
export function route<F extends TObject, D extends TSchema>(app: FastifyInstance, spec: RouteSchema<F, D>, handler: FieldsHandler<F>): void;
export function route<F extends TObject, D extends TSchema>(app: FastifyInstance, spec: RouteSchema<F, D>, a: RouteExtras | FieldsHandler<F>, b?: FieldsHandler<F>): void {
  const extras = typeof a === 'function' ? {} : a;
  const handler = (typeof a === 'function' ? a : b)!;
  const from = spec.from ?? 'any';
  const part = spec.method === 'GET' ? 'query' : 'body';
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  for (const url of [spec.url, ...(spec.aliases ?? [])]) {
    typed.route({
      method: spec.method,
      url,
      schema: openApiSchema(spec as RouteSchema, extras),
      ...(extras.rateLimit ? { config: { rateLimit: extras.rateLimit } } : {}),
      ...(extras.logLevel ? { logLevel: extras.logLevel } : {}),
      // Multipart calls with files check their fields after reading them (checkFields); the others are
      // checked by Fastify against the merged record put in place of the query or body here.
      ...(from === 'multipart' ? { validatorCompiler: () => () => true } : { attachValidation: true }),
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
        return handler((from === 'multipart' ? {} : (req as unknown as Record<string, unknown>)[part]) as Static<F>, req, reply);
      },
    });
  }
}
