/**
 * Every call of spec §7 the client makes (workspace and account pages), by route name through
 * callRoute: method, path, request fields and answer types all come from the route schemas
 * (src/shared/schemas/), which the server validates and documents too. No URL is written here.
 */
import type { DataOf } from '../shared/schemas/common.js';
import type { GetCheckout, Progress } from '../shared/schemas/index.js';
import type { WorkflowList } from '../shared/schemas/workflows.js';
import { ApiError } from './client.js';
import { callRoute, routeUrl, type RouteData, type RouteFields } from './callRoute.js';

export type ProgressData = DataOf<typeof Progress>;
export type WorkflowRecord = DataOf<typeof WorkflowList>['datas'][number];
export type CheckoutView = DataOf<typeof GetCheckout>;

export const guestToken = () => callRoute('GuestToken', {});

/** Moves a guest's uploads, works and workflows to the logged-in user. */
export const bindToken = (userToken: string, guestToken: string) =>
  callRoute('BindToken', { token: userToken, guest_token_v2: guestToken });

export const unbindToken = (userToken: string, guestToken: string) =>
  callRoute('UnbindToken', { token: userToken, guest_token_v2: guestToken });

export const license = (token: string) => callRoute('License', { guest_token_v2: token });

/** How long the caller's results and uploads are kept (retention, by plan) and the upload quota. */
export const retention = (token: string) => callRoute('Retention', { guest_token_v2: token });

export const points = (token: string) => callRoute('Points', { guest_token_v2: token });

/** The bulk rule's check, and the bundle id GET download/all/ takes (asked for with need_download_temp_id=1). */
export async function pointCheck(
  token: string,
  transIds: string[],
): Promise<RouteData<'PointCheck'> & { download_all_id: string }> {
  const d = await callRoute('PointCheck', {
    guest_token_v2: token,
    trans_ids: transIds.join(','),
    need_download_temp_id: 1,
  });
  if (!d.download_all_id) throw new ApiError(500, 'Something went wrong, please try again.');
  return { ...d, download_all_id: d.download_all_id };
}

export const bulkDownloadUrl = (downloadAllId: string) => routeUrl('DownloadAll', { download_all_id: downloadAllId });

/** Starts a work; `idempotencyKey`: the start's key (Work.startKey), so a resent start is answered the first's work. */
export const transform = (uid: string, jconfig: object, zoomType?: string, idempotencyKey?: string) =>
  callRoute(
    'Transform',
    { uid, jconfig: JSON.stringify(jconfig), zoom_type: zoomType },
    { userToken: true, ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}) },
  );

export const progress = (transId: string, signal?: AbortSignal): Promise<ProgressData> =>
  callRoute('Progress', { trans_id: transId }, { userToken: true, signal });

export const downloadUrl = (transId: string, userToken: string) =>
  routeUrl('Download', { trans_id: transId, user_token: userToken });
export const previewUrl = (transId: string, userToken: string) =>
  routeUrl('Preview', { trans_id: transId, user_token: userToken });
export const sourceUrl = (uid: string, userToken: string) => routeUrl('UploadSource', { uid, user_token: userToken });
export const thumbnailUrl = (uid: string, userToken: string) => routeUrl('Thumbnail', { uid, user_token: userToken });

export const uploadList = () => callRoute('UploadList', { limit: 1000 }, { userToken: true });

export const uploadDelete = (uids: string[]) =>
  callRoute('UploadDelete', uids.length === 1 ? { uid: uids[0] } : { uids: uids.join(',') }, { userToken: true });

export const sampleInfo = () => callRoute('SampleInfo', {});
/** This server's engine rates for the time estimate before a start (src/shared/domain/estimate.ts). */
export const engineRates = () => callRoute('EngineRates', {});

export const thumbsUp = (transId: string, up: boolean) =>
  callRoute('Thumbsup', { trans_id: transId, thumbsup: up ? 1 : -1 });

/** Analytics: fire and forget; a lost event must never disturb the user. */
export function report(event: RouteFields<'Report'>['event'], payload: Record<string, unknown> = {}): void {
  callRoute('Report', { event, data: payload }).catch(() => undefined);
}

export const workflowList = (page: number, limit: number) =>
  callRoute('WorkflowList', { page, limit }, { userToken: true });

/** Saves a workflow: add without `id`, update (rename, new steps) with it. A step's config may already be its JSON string. */
export async function workflowAdd(
  name: string,
  flows: { name: string; config: string | object }[],
  id?: number | string,
) {
  const steps = flows.map((f) => ({
    name: f.name,
    config: typeof f.config === 'string' ? f.config : JSON.stringify(f.config),
  }));
  return id === undefined
    ? callRoute('WorkflowAdd', { name, flows: steps }, { userToken: true })
    : callRoute('WorkflowUpdate', { id: Number(id), name, flows: steps }, { userToken: true });
}

export const workflowDelete = (id: number | string) =>
  callRoute('WorkflowDelete', { id: Number(id) }, { userToken: true });

// Accounts (served by the same server as the content site).
export const accountMe = () => callRoute('Me', {});
export const accountLogin = (email: string, password: string) => callRoute('Login', { email, password });
export const accountRegister = (email: string, password: string, confirm_password: string) =>
  callRoute('Register', { email, password, confirm_password });
export const accountLogout = () => callRoute('Logout', {});

/** The site ajax endpoint: a nonce, then form posts by action (user token, credit-* notifications). */
export async function siteAjax<T = unknown>(action: string, extra: Record<string, string | number> = {}): Promise<T> {
  const { nonce } = await callRoute('Nonce', {});
  return (await callRoute('SiteAjax', { action, nonce, pid: 0, ...extra } as never)) as T;
}

// Payments: a checkout for a product, then the provider's pay step (the built-in "local" provider).
export const createCheckout = (input: RouteFields<'CreateCheckout'>) => callRoute('CreateCheckout', input);
export const getCheckout = (id: string) => callRoute('GetCheckout', { id });
/** Whether this server sells plans (no provider configured → the pricing page says purchasing is off). */
export const paymentsConfig = () => callRoute('PaymentsConfig', {});
export const payLocal = (id: string) => callRoute('PayLocal', { id });

export type ProfileData = RouteData<'ProfileSet'>;
export const profileSet = (
  p: Pick<ProfileData, 'first_name' | 'last_name' | 'occupation'> & { occupation_other?: string },
) => callRoute('ProfileSet', p, { userToken: true });
export const changePassword = (old_password: string, password: string, confirm_password: string) =>
  callRoute('ChangePassword', { old_password, password, confirm_password });

/** The occupation survey of the account page (at least one choice, spec §5). */
export const setSurvey = (occupations: string[], occupation_other: string) =>
  callRoute('SurveySet', { occupations, occupation_other });

/** GET /api/job/record: the processing history, newest first. */
export const history = (page: number, limit: number) => callRoute('JobRecord', { page, limit }, { userToken: true });
