/**
 * One call for every route: `callRoute('Transform', { uid, jconfig })` takes the route's method and path
 * from the route table (src/shared/routeTable.ts, written from the route schemas by `npm run api-docs`)
 * and its request fields' and answer's types from the route schema itself (src/shared/schemas/, imported
 * as types only: no TypeBox in the browser bundle). No URL is written out here or in the callers.
 */
import type { DataOf, FieldsOf, RouteSchema } from '../shared/schemas/common.js';
import type * as Schemas from '../shared/schemas/index.js';
import { ROUTE_TABLE } from '../shared/routeTable.js';
import { API_BASE, HIDE_API_BASE, absolute, api, call, hideApi, waitForUserToken } from './client.js';

type Routes = typeof Schemas;
/** The name of every route schema (the route table's keys). */
export type RouteName = { [K in keyof Routes]: Routes[K] extends RouteSchema ? K : never }[keyof Routes] &
  keyof typeof ROUTE_TABLE;
/** A route's request fields, from its schema. */
export type RouteFields<N extends RouteName> = FieldsOf<Routes[N]>;
/** The token fields any call may carry beside its own (they are its auth, not its fields). */
export type TokenFields = Partial<Record<'user_token' | 'guest_token_v2' | 'token', string>>;
/** A route's envelope `data` on success, from its schema. */
export type RouteData<N extends RouteName> = DataOf<Routes[N]>;

export interface CallOptions {
  /** send the workspace's user token (waiting for one first, spec §7) */
  userToken?: boolean;
  signal?: AbortSignal;
  /** request headers beside the fields (the Idempotency-Key of a start) */
  headers?: Record<string, string>;
}

type Scalar = string | number | boolean;
type Fields = Record<string, unknown>;

/** The workspace's "hide" service answers /web_api/…; the main service everything else. */
const onHide = (path: string) => path.startsWith('/web_api/');

const given = (fields: Fields): Record<string, Scalar> =>
  Object.fromEntries(Object.entries(fields).filter((e): e is [string, Scalar] => e[1] !== undefined && e[1] !== null));

/** A POST body: a form, unless a field is a list or an object (then JSON, which every route also takes). */
function bodyOf(fields: Fields): URLSearchParams | Fields {
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  if (Object.values(defined).some((v) => v !== null && typeof v === 'object')) return defined;
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(given(defined))) form.set(k, String(v));
  return form;
}

/** Calls the route `name` with `fields`: its answer's `data`, or an ApiError with the refusal (src/api/client.ts). */
export async function callRoute<N extends RouteName>(
  name: N,
  fields: RouteFields<N> & TokenFields,
  opts: CallOptions = {},
): Promise<RouteData<N>> {
  const [method, url] = ROUTE_TABLE[name];
  const all: Fields = {
    ...(fields as Fields),
    ...(opts.userToken ? { user_token: await waitForUserToken(opts.signal) } : {}),
  };
  const client = onHide(url) ? hideApi : api;
  if (method === 'GET') return call(client, { method, url, params: given(all), signal: opts.signal });
  return call(client, { method, url, data: bodyOf(all), signal: opts.signal, headers: opts.headers });
}

/** The absolute address of a GET route with its query (downloads, previews and thumbnails the browser fetches itself). */
export function routeUrl<N extends RouteName>(name: N, query: RouteFields<N> & TokenFields): string {
  const [, path] = ROUTE_TABLE[name];
  return absolute(onHide(path) ? HIDE_API_BASE : API_BASE, path, query as Record<string, string | number | undefined>);
}
