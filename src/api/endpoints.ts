/**
 * Every call of spec §7 the client makes (workspace and account pages). Main service: /api/…; the "hide"
 * service: /web_api/v1/…. The answers' types are the route schemas' (src/shared/schemas/), type-only: the
 * server validates and documents the same schemas, so no answer shape is declared here.
 */
import type { DataOf } from '../shared/schemas/common.js';
import type { ChangePassword, Login, Logout, Me, ProfileSet, Register, SurveySet } from '../shared/schemas/accounts.js';
import type { PointCheck } from '../shared/schemas/downloads.js';
import type { JobRecord, Thumbsup } from '../shared/schemas/history.js';
import type { CreateCheckout, GetCheckout, PayLocal, PaymentsConfig } from '../shared/schemas/payments.js';
import type { Progress, Transform } from '../shared/schemas/processing.js';
import type { Nonce } from '../shared/schemas/site.js';
import type { SampleInfo } from '../shared/schemas/site.js';
import type { BindToken, GuestToken, License, Points, UnbindToken } from '../shared/schemas/tokens.js';
import type { Retention, UploadDelete, UploadList } from '../shared/schemas/uploads.js';
import type { WorkflowAdd, WorkflowDelete, WorkflowList, WorkflowUpdate } from '../shared/schemas/workflows.js';
import { API_BASE, ApiError, HIDE_API_BASE, absolute, api, call, form, hideApi, waitForUserToken } from './client.js';

export type ProgressData = DataOf<typeof Progress>;
export type WorkflowRecord = DataOf<typeof WorkflowList>['datas'][number];
export type CheckoutView = DataOf<typeof GetCheckout>;

export const guestToken = () => call<DataOf<typeof GuestToken>>(api, { method: 'POST', url: '/api/v2/guest_token' });

/** Moves a guest's uploads, works and workflows to the logged-in user. */
export const bindToken = (userToken: string, guestToken: string) =>
  call<DataOf<typeof BindToken>>(api, { method: 'POST', url: '/api/v2/bind_token', data: form({ token: userToken, guest_token_v2: guestToken }) });

export const unbindToken = (userToken: string, guestToken: string) =>
  call<DataOf<typeof UnbindToken>>(api, { method: 'POST', url: '/api/v2/unbind_token', data: form({ token: userToken, guest_token_v2: guestToken }) });

export const license = (token: string) =>
  call<DataOf<typeof License>>(api, { method: 'POST', url: '/api/v2/license', data: form({ guest_token_v2: token }) });

/** How long the caller's results and uploads are kept (retention, by plan) and the upload quota. */
export const retention = (token: string) =>
  call<DataOf<typeof Retention>>(api, { method: 'GET', url: '/api/v2/retention', params: { guest_token_v2: token } });

export const points = (token: string) =>
  call<DataOf<typeof Points>>(api, { method: 'GET', url: '/api/v2/point', params: { guest_token_v2: token } });

/** The bulk rule's check, and the bundle id GET download/all/ takes (asked for with need_download_temp_id=1). */
export async function pointCheck(token: string, transIds: string[]): Promise<DataOf<typeof PointCheck> & { download_all_id: string }> {
  const d = await call<DataOf<typeof PointCheck>>(api, {
    method: 'POST',
    url: '/api/v2/point/check',
    data: form({ guest_token_v2: token, trans_ids: transIds.join(','), need_download_temp_id: 1 }),
  });
  if (!d.download_all_id) throw new ApiError(500, 'Something went wrong, please try again.');
  return { ...d, download_all_id: d.download_all_id };
}

export const bulkDownloadUrl = (downloadAllId: string) => absolute(API_BASE, '/api/v2/download/all/', { download_all_id: downloadAllId });

export async function transform(uid: string, jconfig: object, zoomType?: string): Promise<DataOf<typeof Transform>> {
  const user_token = await waitForUserToken();
  return call(hideApi, {
    method: 'POST',
    url: '/web_api/v1/transform',
    data: form({ uid, jconfig: JSON.stringify(jconfig), user_token, zoom_type: zoomType }),
  });
}

export async function progress(transId: string, signal?: AbortSignal): Promise<ProgressData> {
  const user_token = await waitForUserToken(signal);
  return call(hideApi, { method: 'GET', url: '/web_api/v1/progress', params: { trans_id: transId, user_token }, signal });
}

export const downloadUrl = (transId: string, userToken: string) => absolute(HIDE_API_BASE, '/web_api/v1/download/', { trans_id: transId, user_token: userToken });
export const previewUrl = (transId: string, userToken: string) => absolute(HIDE_API_BASE, '/web_api/v1/preview', { trans_id: transId, user_token: userToken });
export const sourceUrl = (uid: string, userToken: string) => absolute(HIDE_API_BASE, '/web_api/v1/download/src', { uid, user_token: userToken });
export const thumbnailUrl = (uid: string, userToken: string) => absolute(HIDE_API_BASE, '/web_api/v1/thumbnail', { uid, user_token: userToken });

export async function uploadList(): Promise<DataOf<typeof UploadList>> {
  const user_token = await waitForUserToken();
  return call(hideApi, { method: 'POST', url: '/web_api/v1/upload/list', data: form({ limit: 1000, user_token }) });
}

export async function uploadDelete(uids: string[]): Promise<DataOf<typeof UploadDelete>> {
  const user_token = await waitForUserToken();
  const fields = uids.length === 1 ? { uid: uids[0] } : { uids: uids.join(',') };
  return call(hideApi, { method: 'POST', url: '/web_api/v1/upload/delete', data: form({ ...fields, user_token }) });
}

export const sampleInfo = () => call<DataOf<typeof SampleInfo>>(api, { method: 'GET', url: '/api/v2/sample/info' });

export const thumbsUp = (transId: string, up: boolean) =>
  call<DataOf<typeof Thumbsup>>(api, { method: 'POST', url: '/api/v2/thumbsup', data: form({ trans_id: transId, thumbsup: up ? 1 : -1 }) });

/** Analytics: fire and forget; a lost event must never disturb the user. */
export function report(event: string, payload: Record<string, unknown> = {}): void {
  api.post('/api/report', { event, data: payload }).catch(() => undefined);
}

export async function workflowList(page: number, limit: number) {
  const user_token = await waitForUserToken();
  return call<DataOf<typeof WorkflowList>>(api, {
    method: 'GET',
    url: '/api/work_flow/list',
    params: { page, limit, user_token },
  });
}

/** Saves a workflow: add without `id`, update (rename, new steps) with it. A step's config may already be its JSON string. */
export async function workflowAdd(name: string, flows: { name: string; config: string | object }[], id?: number | string) {
  const user_token = await waitForUserToken();
  const body = { name, flows: flows.map((f) => ({ name: f.name, config: typeof f.config === 'string' ? f.config : JSON.stringify(f.config) })), user_token, ...(id !== undefined ? { id } : {}) };
  return call<DataOf<typeof WorkflowAdd> | DataOf<typeof WorkflowUpdate>>(api, { method: 'POST', url: id === undefined ? '/api/work_flow/add' : '/api/work_flow/update', data: body });
}

export async function workflowDelete(id: number | string) {
  const user_token = await waitForUserToken();
  return call<DataOf<typeof WorkflowDelete>>(api, { method: 'POST', url: '/api/work_flow/delete', data: { id, user_token } });
}

// Accounts (served by the same server as the content site).
export const accountMe = () => call<DataOf<typeof Me>>(api, { method: 'GET', url: '/api/account/me' });
export const accountLogin = (email: string, password: string) => call<DataOf<typeof Login>>(api, { method: 'POST', url: '/api/account/login', data: { email, password } });
export const accountRegister = (email: string, password: string, confirm_password: string) =>
  call<DataOf<typeof Register>>(api, { method: 'POST', url: '/api/account/register', data: { email, password, confirm_password } });
export const accountLogout = () => call<DataOf<typeof Logout>>(api, { method: 'POST', url: '/api/account/logout' });

/** The site ajax endpoint: a nonce, then form posts by action (user token, credit-* notifications). */
export async function siteAjax<T = unknown>(action: string, extra: Record<string, string | number> = {}): Promise<T> {
  const { nonce } = await call<DataOf<typeof Nonce>>(api, { method: 'GET', url: '/site-ajax/nonce' });
  return call<T>(api, { method: 'POST', url: '/site-ajax', data: form({ action, nonce, pid: 0, ...extra }) });
}

// Payments: a checkout for a product, then the provider's pay step (the built-in "local" provider).
export const createCheckout = (input: { product_id: number; currency: string; locale: string; source?: string; medium?: string }) =>
  call<DataOf<typeof CreateCheckout>>(api, { method: 'POST', url: '/api/payments/checkout', data: input });
export const getCheckout = (id: string) => call<DataOf<typeof GetCheckout>>(api, { method: 'GET', url: '/api/payments/checkout', params: { id } });
/** Whether this server sells plans (no provider configured → the pricing page says purchasing is off). */
export const paymentsConfig = () => call<DataOf<typeof PaymentsConfig>>(api, { method: 'GET', url: '/api/payments/config' });
export const payLocal = (id: string) => call<DataOf<typeof PayLocal>>(api, { method: 'POST', url: '/api/payments/local/pay', data: { id } });

export type ProfileData = DataOf<typeof ProfileSet>;
export async function profileSet(p: Pick<ProfileData, 'first_name' | 'last_name' | 'occupation'> & { occupation_other?: string }) {
  const user_token = await waitForUserToken();
  return call<ProfileData>(api, { method: 'POST', url: '/api/v2/profile/set', data: form({ ...p, user_token }) });
}
export const changePassword = (old_password: string, password: string, confirm_password: string) =>
  call<DataOf<typeof ChangePassword>>(api, { method: 'POST', url: '/api/account/password', data: { old_password, password, confirm_password } });

/** The occupation survey of the account page (at least one choice, spec §5). */
export const setSurvey = (occupations: string[], occupation_other: string) =>
  call<DataOf<typeof SurveySet>>(api, { method: 'POST', url: '/api/v2/survey/set', data: { occupations, occupation_other } });

/** GET /api/job/record: the processing history, newest first. */
export async function history(page: number, limit: number): Promise<DataOf<typeof JobRecord>> {
  const user_token = await waitForUserToken();
  return call(api, { method: 'GET', url: '/api/job/record', params: { page, limit, user_token } });
}
