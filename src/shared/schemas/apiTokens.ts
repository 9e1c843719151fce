/**
 * The developer API's token calls (spec §7 "API host calls"): api_token/get and api_token/reset. Both
 * take the signed-in user's token (field or cookie), never an API token; the answer is the token's
 * view, with the whole token only in the answer that created it.
 */
import { Type, type Static } from 'typebox';
import {
  API_FREE_PREVIEWS_PER_MONTH,
  API_PREVIEW_MEGAPIXELS,
  API_TOKEN_RATE_LIMIT_PER_MINUTE,
} from '../domain/apiPlans.js';
import { Nullable, routeGroup, type Auth } from './common.js';

/** The signed-in user's token as a field or its cookie: an API token is refused on these calls. */
export const USER_TOKEN_ONLY: Auth = [{ user_token: [] }, { user_token_cookie: [] }];

export const ApiTokenData = Type.Object({
  api_token: Nullable(
    Type.String({
      description: 'the whole token: only in the answer that created it (the first get, every reset); null afterwards',
      examples: ['pxm_Zq3v…'],
    }),
  ),
  webhook_secret: Nullable(
    Type.String({
      description:
        'the key’s webhook signing secret (HMAC-SHA256, docs/api.md “Webhooks”): only in the answer that made it (a new key, a reset, or the first get of a key from before webhooks); null afterwards',
      examples: ['whsec_…'],
    }),
  ),
  masked: Type.String({
    description: 'the token’s visible form: prefix and last four characters',
    examples: ['pxm_…x9Qa'],
  }),
  created: Type.Boolean({ description: 'true when this answer created the token' }),
  created_at: Type.Integer({ description: 'ms since 1970' }),
  last_used_at: Nullable(Type.Integer({ description: 'ms since 1970 of its last call; null before the first' })),
  calls_this_month: Type.Integer({ minimum: 0, description: 'calls made with this token in the current month (UTC)' }),
  entitlement: Type.Union([Type.Literal('pro'), Type.Literal('api_plan'), Type.Literal('free')], {
    description:
      'what the key rests on: a Pro subscription, an API credit pack, or a free account (free previews, full size with its credits)',
  }),
  free_previews_left: Type.Integer({
    minimum: 0,
    description: `results at size=preview (at most ${API_PREVIEW_MEGAPIXELS} MP) that cost no credit this month (UTC)`,
  }),
  free_previews_per_month: Type.Integer({
    minimum: 0,
    description: 'free previews a month (the server’s API_FREE_PREVIEWS_PER_MONTH)',
    examples: [API_FREE_PREVIEWS_PER_MONTH],
  }),
  credits: Type.Integer({
    minimum: 0,
    description: 'credits left; each processed image uses one, as in the workspace',
  }),
  api_pack_credits: Type.Integer({
    minimum: 0,
    description:
      'API pack credits still owned (within credits left): plan changes keep them; plan credits are spent first',
  }),
  rate_limit_per_minute: Type.Integer({
    description: 'calls a minute this token may make',
    examples: [API_TOKEN_RATE_LIMIT_PER_MINUTE],
  }),
});
export type ApiTokenView = Static<typeof ApiTokenData>;

const ENTITLEMENT =
  'For every signed-in account (a free one too: free previews, full size with its credits); a guest or an API token gets code 6 (HTTP 401).';

const apiTokens = routeGroup('authenticate', USER_TOKEN_ONLY);

export const ApiTokenGet = apiTokens.post(
  '/api/v2/api_token/get',
  'Creates the caller’s API token, or shows the existing one’s metadata',
  {
    description: `The first call creates the token and answers it whole, once; later calls answer its masked form, last use, calls this month and credits. ${ENTITLEMENT}`,
    fields: Type.Object({
      create: Type.Optional(
        Type.Boolean({
          default: true,
          description:
            'false: only show the existing token’s metadata (data is null when there is none); the account page asks so before the user chooses to create one',
        }),
      ),
    }),
    data: Nullable(ApiTokenData),
    example: { create: true },
  },
);

export const ApiTokenReset = apiTokens.post(
  '/api/v2/api_token/reset',
  'Replaces the caller’s API token; the old one stops working at once',
  {
    description: `Answers the new token whole, once. ${ENTITLEMENT}`,
    data: ApiTokenData,
  },
);

export const WebhookDelivery = Type.Object({
  trans_id: Type.String({ description: 'the work' }),
  url: Type.String({ description: 'the webhook_url it was started with' }),
  status: Type.Enum(['waiting', 'sending', 'retry', 'delivered', 'failed'], {
    description:
      'waiting: the work runs; sending: a try is under way; retry: a try failed, another is due; delivered: a 2xx answer; failed: every try failed (or the address is private)',
  }),
  event: Nullable(Type.Enum(['work.finished', 'work.failed'], { description: 'what was sent, once the work ended' })),
  attempts: Type.Integer({ minimum: 0, description: 'tries so far' }),
  last_http: Nullable(Type.Integer({ description: 'the last try’s HTTP status' })),
  last_error: Nullable(Type.String({ description: 'why the last try failed' })),
  created_at: Type.Integer({ description: 'ms since 1970' }),
  delivered_at: Nullable(Type.Integer({ description: 'ms since 1970 of the 2xx answer' })),
});

export const ApiWebhookList = apiTokens.post(
  '/api/v2/api_token/webhooks',
  'The account’s latest webhook deliveries (the account page’s Developer API section)',
  {
    description: 'The 50 latest works started with a webhook_url, newest first, and how their delivery went.',
    data: Type.Array(WebhookDelivery),
  },
);
