/** The account page's developer calls: the API token (view, create, reset) and API pack checkouts, by route (callRoute). */
import type { ApiTokenView } from '../shared/schemas/apiTokens.js';
import type { ApiPlanCurrency } from '../shared/domain/apiPlans.js';
import { callRoute } from './callRoute.js';

export type { ApiTokenView };

/** The existing token's view, or null when the account has none yet (creates nothing). */
export const apiTokenView = () => callRoute('ApiTokenGet', { create: false }, { userToken: true });
/** Creates the account's token; the answer holds it whole, once. */
export const apiTokenCreate = async (): Promise<ApiTokenView> =>
  (await callRoute('ApiTokenGet', {}, { userToken: true }))!;
/** A new token in place of the old one, which stops working. */
export const apiTokenReset = () => callRoute('ApiTokenReset', {}, { userToken: true });
/** The account's latest webhook deliveries (newest first). */
export const apiWebhookList = () => callRoute('ApiWebhookList', {}, { userToken: true });
/** Opens a checkout for an API credit pack (spec §7 GET checkout with email and api_plan). */
export const apiPlanCheckout = (email: string, apiPlan: string, currency?: ApiPlanCurrency) =>
  callRoute('ApiCheckout', { email, api_plan: apiPlan, currency }, { userToken: true });
