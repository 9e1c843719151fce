/**
 * Route schemas: the one description of every API call, read by the server (validation, through
 * server/http/schemaRoute.ts), by the OpenAPI document (@fastify/swagger, /api-docs/openapi.json) and by
 * the browser client (`Static<typeof …>` types in src/api/endpoints.ts). Written with TypeBox, whose
 * schemas are plain JSON Schema objects (docs/decisions/route-schemas.md says why).
 *
 * How to declare a route:
 *  1. In this folder's file for the route group (uploads.ts, processing.ts, …), make the group once with
 *     `routeGroup(tag, auth)`: the tag (the developer's group: authenticate, upload, process, poll,
 *     download, account, site, payments, misc) and the `auth` (one of AUTH below) most of its calls take.
 *     Then export each route's schema with `group.get(url, summary, {...})` or `group.post(…)`: `fields`
 *     (a `Type.Object` of the request fields, token fields left out: they are `auth`), `data` (the
 *     envelope's `data` on success) or `file` (the call answers a file), an `example` of the fields, and
 *     `auth` where the route differs from its group.
 *     Field options that matter: `description` (shown in the docs), limits (`minLength`, `maximum`, …)
 *     and `examples`. Calls that spend credits refuse fields they do not take: give their fields
 *     `{ additionalProperties: false }` (token fields still travel beside the others: the check allows
 *     them, server/http/validation.ts); other calls keep additional properties allowed.
 *     Integer ids are bounded (`Id()`, at most MAX_ID): a larger one is a refused field, not a lookup.
 *  2. In server/http/routes/<group>.ts register it: `route(app, Schema, async (fields, req, reply) => …)`
 *     (`fields` is typed `Static<typeof Schema.fields>`, already checked and converted: numbers are
 *     numbers). `from` picks where fields come from: 'any' (default: query, urlencoded/JSON body and
 *     multipart fields merged, the body winning, as VanceAI's API takes them), 'body' (never the URL:
 *     passwords) or 'multipart' (calls with files: the handler reads the body and calls checkFields).
 *  3. A field that fails its schema answers code 10001 (HTTP 200, as every parameter error) with the
 *     field named in `msg` and in `data.field`. Rules that are not about the shape (ownership, plan
 *     limits) stay in the services with their own codes.
 *  4. Run `npm run api-docs`: it rewrites src/pages/content/openapi.json, the copy the /api-docs/ page shows
 *     offline (scripts/api-docs.test.ts fails while it differs from the server's document).
 */
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import { CODE } from '../domain/codes.js';
import { REASON_CODES } from '../domain/reasons.js';

/** The developer's groups of the docs, in their order on the page. */
export const TAGS = [
  {
    name: 'authenticate',
    description: 'Tokens: a guest token, a user token from the site session, binding a guest’s work to an account.',
  },
  {
    name: 'upload',
    description: 'Sending images: whole files, 5 MB slices with resume, by URL; listing and deleting uploads.',
  },
  {
    name: 'process',
    description: 'Starting a work: a feature (or a workflow of steps) on an uploaded image, one credit each.',
  },
  { name: 'poll', description: 'Following a work until it is finished: progress, history and feedback.' },
  { name: 'download', description: 'Results: single files, previews, converted files and zips of many results.' },
  { name: 'account', description: 'Accounts: sign-up, login, password, profile, credits, plans and saved workflows.' },
  { name: 'payments', description: 'Checkouts and payment-provider webhooks.' },
  {
    name: 'site',
    description: 'The content site: sample images, the contact form, the site ajax endpoint, mail settings.',
  },
  { name: 'misc', description: 'Service health, the sitemap, on-device model files, analytics and this document.' },
] as const;
export type Tag = (typeof TAGS)[number]['name'];

/**
 * How a caller proves who it is (OpenAPI security schemes). A token travels as a query/form field or
 * in its cookie; the API token (an API plan or Pro account's key) as `Authorization: Bearer` or the
 * `api_token` field.
 */
export const SECURITY_SCHEMES = {
  user_token: {
    type: 'apiKey',
    in: 'query',
    name: 'user_token',
    description: 'A signed-in user’s token, as a query or form field (also `token`).',
  },
  guest_token_v2: {
    type: 'apiKey',
    in: 'query',
    name: 'guest_token_v2',
    description: 'A guest token from POST /api/v2/guest_token, as a query or form field.',
  },
  user_token_cookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'user_token',
    description: 'The user token cookie the workspace sets.',
  },
  guest_token_cookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'guest_token',
    description: 'The guest token cookie the workspace sets.',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'pixmill_session',
    description: 'The content site’s login session (set by login and register).',
  },
  api_key: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: 'An API token (My account → Developer API, or POST /api/v2/api_token/get), as the `X-Api-Key` header.',
  },
  api_token: {
    type: 'http',
    scheme: 'bearer',
    description: 'An API token (POST /api/v2/api_token/get), as `Authorization: Bearer <token>`.',
  },
  api_token_field: {
    type: 'apiKey',
    in: 'query',
    name: 'api_token',
    description: 'An API token as the `api_token` query or form field.',
  },
} as const;
type SecurityName = keyof typeof SECURITY_SCHEMES;

/** The request fields a token may travel in (they are `auth`, never a route's fields, and every call takes them). */
export const TOKEN_FIELDS = ['user_token', 'guest_token_v2', 'token', 'api_token'] as const;

/** OpenAPI security requirements: any one of the listed schemes; an empty entry means "or none". */
export type Auth = ReadonlyArray<Partial<Record<SecurityName, []>>>;
const any = (...names: SecurityName[]): Auth => names.map((n) => ({ [n]: [] }));
export const AUTH = {
  /** anyone, no token */
  none: [] as Auth,
  /** a guest or user token (field or cookie) */
  token: any('user_token', 'guest_token_v2', 'user_token_cookie', 'guest_token_cookie'),
  /** a token when there is one (anonymous calls are answered too) */
  optionalToken: [...any('user_token', 'guest_token_v2', 'user_token_cookie', 'guest_token_cookie'), {}] as Auth,
  /** a token sent explicitly as a field (a cookie alone is refused: these GETs change state) */
  tokenField: any('user_token', 'guest_token_v2'),
  /** a signed-in account: the session cookie or a user token */
  signedIn: any('session', 'user_token', 'user_token_cookie'),
  /** the content site's session cookie */
  session: any('session'),
  /** the session when there is one */
  optionalSession: [...any('session'), {}] as Auth,
  /** a token as above, or an API token */
  tokenOrApi: any(
    'user_token',
    'guest_token_v2',
    'user_token_cookie',
    'guest_token_cookie',
    'api_key',
    'api_token',
    'api_token_field',
  ),
  /** an API token only (the developer API's own calls) */
  api: any('api_key', 'api_token', 'api_token_field'),
} as const;

/** The answer of every JSON call (spec §7): `{code: 200, msg: 'ok', data}`. */
export const Envelope = <D extends TSchema>(data: D) =>
  Type.Object({
    code: Type.Literal(200, { description: '200 on success; any other code is an error (see ErrorEnvelope)' }),
    msg: Type.String({ examples: ['ok'] }),
    data,
  });

/** Every envelope code an error answer may carry (spec §7–§8, and 500/503 for faults and outages). */
const ERROR_CODES = [...new Set([...Object.values(CODE).filter((c) => c !== CODE.OK), 404, 500, 503])].sort(
  (a, b) => a - b,
);

/** An error answer: the spec's code (10001 parameter error, 10012 insufficient credits, 6 verification failed, …), its English text and its reason. */
export const ErrorEnvelope = Type.Object(
  {
    code: Type.Enum(ERROR_CODES, {
      description:
        'the spec’s code: 1–6 account forms (1 parameter error, 2 unknown user, 3 wrong password, 5 invalid validation, 6 verification failed), 10001 parameter error, 10012 insufficient credits, 30004 not enough points, 404 a model file not found (GET /models/…), 500 server fault, 503 service unavailable',
    }),
    msg: Type.String({ description: 'English text; clients switch on data.reason, never on the text' }),
    data: Type.Union([
      Type.Null(),
      Type.Object({
        reason: Type.Optional(
          Type.Enum(REASON_CODES, {
            description: 'the refusal’s stable code (the catalogue of src/shared/domain/reasons.ts)',
          }),
        ),
        field: Type.Optional(
          Type.String({
            description: 'the request field at fault, as a path for nested fields (jconfig.config.module_params.scale)',
          }),
        ),
      }),
    ]),
  },
  { examples: [{ code: 10001, msg: 'uid is required', data: { reason: 'fieldRequired', field: 'uid' } }] },
);
/** Where the document keeps ErrorEnvelope once (every operation's error answers refer to it). */
export const ERROR_ENVELOPE_REF = '#/components/schemas/ErrorEnvelope';

// Identifiers and formats used by several groups: one place for each.
/** The largest integer id a database column holds (PostgreSQL `integer`): larger ids are refused as fields, never looked up. */
export const MAX_ID = 2_147_483_647;
/** A row's integer id (workflows, events, products). */
export const Id = (o: { description?: string } = {}) => Type.Integer({ minimum: 1, maximum: MAX_ID, ...o });
export const Uid = (o: { description?: string } = {}) =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'an upload’s id (from the upload calls)',
    examples: ['3f2c9a4e-8d1b-4c7e-9f00-1a2b3c4d5e6f'],
    ...o,
  });
export const TransId = (o: { description?: string } = {}) =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'a work’s id (from transform)',
    examples: ['7b1e0c52-93aa-4f6e-b0d2-5c4e8f9a1d30'],
    ...o,
  });
/** One id or a comma-separated list of them, or an array (`ids[]`). */
export const IdList = (item: TSchema, description: string) =>
  Type.Union(
    [
      Type.String({ minLength: 1, maxLength: 100_000, description: 'one id or a comma-separated list' }),
      Type.Array(item, { maxItems: 1000 }),
    ],
    { description },
  );
/** The answer of a call that records an event (a notification, a report, a left checkout). */
export const EventRecorded = Type.Object({ event_id: Type.Integer() });
/** The answer of a call that deletes: how many went. */
export const Deleted = Type.Object({ deleted: Type.Integer() });
/** A page number from 1. */
export const Page = Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'page number from 1', default: 1 });
/** A page of a list: `datas` and where it is. */
export const Paged = <T extends TSchema>(item: T) =>
  Type.Object({
    datas: Type.Array(item),
    current_page: Type.Integer(),
    total: Type.Integer(),
    last_page: Type.Integer(),
  });
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
/**
 * A text of the account and contact forms. Those forms check their texts with the rules the pages
 * share (src/shared/domain/account.ts: code 1 with a text per field, which the pages show beside the field),
 * so the schema only says it is text (the form body limit, 64 KB, bounds its size).
 */
export const FormText = (description: string) => Type.Optional(Type.String({ description }));

/** A call that answers a file instead of the envelope. */
interface FileAnswer {
  /** content types it may answer */
  types: readonly string[];
  description: string;
}

/** What a route declares besides its method, URL, summary and tag; `auth` is its group's unless given. */
export interface RouteOptions<F extends TObject = TObject, D extends TSchema = TSchema> {
  /** further paths that answer the same call (the spec's trailing-slash forms) */
  aliases?: readonly string[];
  description?: string;
  auth?: Auth;
  /** the request fields (tokens are `auth`, not fields) */
  fields?: F;
  /** where the fields may come from (see the how-to above); 'any' by default */
  from?: 'any' | 'body' | 'multipart';
  /** file parts of a multipart call (`from: 'multipart'`), by field name */
  files?: Readonly<Record<string, { description: string; required?: boolean }>>;
  /** path parameters (`/models/:name`) */
  params?: TObject;
  /** the envelope's `data` on success */
  data?: D;
  /** the call answers a file (then `data` is not used) */
  file?: FileAnswer;
  /** one example of the request fields (tokens left out) */
  example?: Static<F>;
  /** answers besides 200 and the error answers the server gives every call of its kind (schemaRoute.ts), by HTTP status */
  statuses?: Readonly<Record<number, { description: string; data?: TSchema }>>;
  /** response headers the call sends, by HTTP status (the rate-limit ones are added by schemaRoute.ts) */
  headers?: Readonly<Record<number, Readonly<Record<string, ResponseHeader>>>>;
}

/** A response header in the document: what it says, and its value's type. */
export interface ResponseHeader {
  description: string;
  type: 'integer' | 'string' | 'boolean';
}

export interface RouteSchema<F extends TObject = TObject, D extends TSchema = TSchema> extends RouteOptions<F, D> {
  method: 'GET' | 'POST';
  url: string;
  tag: Tag;
  summary: string;
  auth: Auth;
}

/**
 * The routes of one tag: the tag and the auth most of its calls take are said once, and each route
 * is `group.get(url, summary, options)` or `group.post(…)` (keeping the literal types for `Static<>`).
 */
export function routeGroup(tag: Tag, auth: Auth) {
  const declare =
    (method: RouteSchema['method']) =>
    <F extends TObject = TObject, D extends TSchema = TSchema>(
      url: string,
      summary: string,
      options: RouteOptions<F, D> = {},
    ): RouteSchema<F, D> => ({
      method,
      url,
      tag,
      summary,
      ...options,
      auth: options.auth ?? auth,
    });
  return { get: declare('GET'), post: declare('POST') };
}

/** The envelope data type of a route schema, for the browser client. */
export type DataOf<R> = R extends RouteSchema<TObject, infer D> ? Static<D> : never;
/** The request fields type of a route schema. */
export type FieldsOf<R> = R extends RouteSchema<infer F, TSchema> ? Static<F> : never;

/**
 * Compile-time proof that a schema's type and a domain type are the same (both directions):
 * `const _: Same<Static<typeof S>, DomainType> = true`. Keeps a domain interface the app uses
 * elsewhere from drifting from the schema the server documents.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
