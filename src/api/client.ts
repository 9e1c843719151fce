/** The axios client: two bases (main and "hide" service), the {code,msg,data} envelope and the token queue. */
import axios, { type AxiosInstance, type AxiosRequestConfig } from 'axios';
import { CODE, type Envelope } from '../shared/domain/codes.js';
import { TOKEN_RETRY_MS } from '../shared/domain/constants.js';
import { reasonOf } from '../shared/domain/refusal.js';
import { loadReasons } from '../i18n/index.js';
import { COOKIE, getCookie } from '../lib/cookies.js';

export const API_BASE: string = import.meta.env.VITE_API_BASE ?? '';
export const HIDE_API_BASE: string = import.meta.env.VITE_HIDE_API_BASE ?? API_BASE;

export const api: AxiosInstance = axios.create({ baseURL: API_BASE || undefined, withCredentials: true });
export const hideApi: AxiosInstance = axios.create({ baseURL: HIDE_API_BASE || undefined, withCredentials: true });

/** An answer with a code other than 200; `code` maps to the error catalogue. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * Refusals the client answers by itself rather than by showing their text (a guest's GET
 * /api/account/me is `unauthorized` on every first visit): their texts are not fetched for them, so a
 * first load carries no reasons chunk; shown anyway, they read as their code's text.
 */
const ANSWERED_BY_CLIENT: ReadonlySet<string> = new Set(['unauthorized']);

/**
 * The refusal of an envelope that is not code 200, once the texts of its reason are loaded (a
 * handler translates data.reason synchronously: errorText(), the forms' field errors).
 */
export async function refusalOf(b: Envelope): Promise<ApiError> {
  const r = reasonOf(b.data);
  if (r && !ANSWERED_BY_CLIENT.has(r.reason)) await loadReasons().catch(() => undefined);
  return new ApiError(b.code, b.msg, b.data);
}

/** Unwraps the envelope: data on 200, ApiError otherwise (also for HTTP errors that carry an envelope). */
export async function call<T>(client: AxiosInstance, config: AxiosRequestConfig): Promise<T> {
  let body: Envelope<T>;
  try {
    body = (await client.request<Envelope<T>>(config)).data;
  } catch (e) {
    if (axios.isAxiosError(e) && e.response?.data && typeof e.response.data === 'object' && 'code' in e.response.data)
      throw await refusalOf(e.response.data as Envelope);
    throw e;
  }
  if (!body || typeof body !== 'object' || !('code' in body))
    throw new ApiError(500, 'Something went wrong, please try again.');
  if (body.code !== CODE.OK) throw await refusalOf(body);
  return body.data;
}

/** Spec §7: requests without a user_token are queued and retried every 100 ms until one exists. */
export function waitForUserToken(signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'));
      const t = getCookie(COOKIE.userToken);
      if (t) return resolve(t);
      setTimeout(tick, TOKEN_RETRY_MS);
    };
    tick();
  });
}

export function form(fields: Record<string, string | number | undefined>): URLSearchParams {
  const f = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) f.set(k, String(v));
  return f;
}

export function absolute(base: string, path: string, query: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  return `${base}${path}?${q.toString()}`;
}
