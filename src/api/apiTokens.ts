/** The account page's developer calls: the API token (view, create, reset) and API pack checkouts, typed by their route schemas. */
import type { ApiTokenView } from '../shared/schemas/apiTokens.js';
import type { CheckoutData } from '../shared/schemas/payments.js';
import type { ApiPlanCurrency } from '../shared/domain/apiPlans.js';
import { api, call, form, waitForUserToken } from './client.js';

export type { ApiTokenView };

/** The existing token's view, or null when the account has none yet (creates nothing). */
export const apiTokenView = async () => call<ApiTokenView | null>(api, { method: 'POST', url: '/api/v2/api_token/get', data: form({ user_token: await waitForUserToken(), create: 'false' }) });
/** Creates the account's token; the answer holds it whole, once. */
export const apiTokenCreate = async () => call<ApiTokenView>(api, { method: 'POST', url: '/api/v2/api_token/get', data: form({ user_token: await waitForUserToken() }) });
/** A new token in place of the old one, which stops working. */
export const apiTokenReset = async () => call<ApiTokenView>(api, { method: 'POST', url: '/api/v2/api_token/reset', data: form({ user_token: await waitForUserToken() }) });
/** Opens a checkout for an API credit pack (spec §7 GET checkout with email and api_plan). */
export const apiPlanCheckout = async (email: string, apiPlan: string, currency?: ApiPlanCurrency) =>
  call<CheckoutData>(api, { method: 'GET', url: '/api/v2/checkout', params: { email, api_plan: apiPlan, currency, user_token: await waitForUserToken() } });
