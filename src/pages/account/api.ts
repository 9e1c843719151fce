/** The account side's calls (password, profile, survey, licence, history, workflow rename) on the main service. */
import { api, call, form, waitForUserToken } from '../../api/client.js';
import type { LicenseData } from '../../api/endpoints.js';
import type { AccountView } from '../../domain/account.js';

/** The account as GET /api/account/me answers it (one shape, shared with the server). */
export type AccountInfo = AccountView;

export interface LicenseFull extends LicenseData {
  left_credits: number;
  low_credit_warning: boolean;
  compress_max: number;
  compress_used: number;
  plan_expires_at: number | null;
}

export interface HistoryRecord {
  trans_id: string;
  uid: string;
  job: string;
  status: 'queued' | 'running' | 'finished' | 'failed';
  filename: string | null;
  w: number | null;
  h: number | null;
  result_w: number | null;
  result_h: number | null;
  created_at: number;
  finished_at: number | null;
}

export interface Page<T> {
  datas: T[];
  current_page: number;
  total: number;
  last_page: number;
}

export const me = () => call<AccountInfo>(api, { method: 'GET', url: '/api/account/me' });

export async function licenseFull(): Promise<LicenseFull> {
  const token = await waitForUserToken();
  return call(api, { method: 'POST', url: '/api/v2/license', data: form({ guest_token_v2: token }) });
}

export const changePassword = (old_password: string, password: string, confirm_password: string) =>
  call<null>(api, { method: 'POST', url: '/api/account/password', data: { old_password, password, confirm_password } });

export async function setProfile(f: { first_name: string; last_name: string; occupation: string; occupation_other: string }) {
  const user_token = await waitForUserToken();
  return call<{ first_name: string; last_name: string; occupation: string; occupation_other: string }>(api, { method: 'POST', url: '/api/v2/profile/set', data: { ...f, user_token } });
}

export const setSurvey = (occupations: string[], occupation_other: string) =>
  call<{ survey: string[] }>(api, { method: 'POST', url: '/api/v2/survey/set', data: { occupations, occupation_other } });

export async function history(page: number, limit: number): Promise<Page<HistoryRecord>> {
  const user_token = await waitForUserToken();
  return call(api, { method: 'GET', url: '/api/job/record', params: { page, limit, user_token } });
}

export async function renameWorkflow(id: number | string, name: string, flows: { name: string; config: string | object }[]) {
  const user_token = await waitForUserToken();
  return call<{ id: number; name: string }>(api, { method: 'POST', url: '/api/work_flow/update', data: { id, name, flows, user_token } });
}
