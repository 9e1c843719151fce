/** Processing: start a work (a feature or a workflow on an upload) and poll its progress. */
import { Type } from 'typebox';
import { API_FREE_PREVIEWS_PER_MONTH, API_PREVIEW_MEGAPIXELS, API_SIZES } from '../domain/apiPlans.js';
import { PROCESS_TIMEOUT_MS } from '../domain/constants.js';
import { WORK_FAILURES } from '../domain/work.js';
import { ENLARGE_PATHS } from '../domain/enlargePath.js';
import { AUTH, TransId, Uid, routeGroup } from './common.js';
import { featureParamFields, JOB_NAMES } from './jobConfig.js';

/** Where a work's end is POSTed (API keys only; docs/api.md "Webhooks"). */
const WebhookUrl = () =>
  Type.String({
    minLength: 1,
    maxLength: 2048,
    description:
      'with an API key: an http(s) URL that gets a signed POST when the work finishes or fails (Pixmill-Signature: t=…,v1=HMAC-SHA256 of "t.body" with your webhook secret), retried with backoff up to 5 tries; private and loopback addresses are refused',
  });

/** The headers of an answer that started or ran a work. */
const CREDIT_HEADERS = {
  'X-Credits-Charged': { description: 'credits this call took (0 for a free preview or a replay)', type: 'integer' },
  'X-Credits-Left': { description: 'credits left after it (compress works: compress credits)', type: 'integer' },
} as const;
const PROCESS_HEADERS = {
  'X-Trans-Id': { description: 'the work’s trans_id', type: 'string' },
  ...CREDIT_HEADERS,
  'X-Input-Downscaled': {
    description: 'true when the photo was scaled down to your plan (size=auto) or to a preview',
    type: 'boolean',
  },
  'X-Free-Previews-Left': { description: 'size=preview: free previews left this month', type: 'integer' },
} as const;

/** Other names of background removal (matting), as remove.bg's and other APIs call it. */
export const MATTING_ALIASES = ['background_removal', 'remove_background'] as const;

/** The longest wait of the synchronous call, in seconds: the spec's process timeout. */
export const SYNC_WAIT_MAX_S = PROCESS_TIMEOUT_MS / 1000;

/**
 * The jconfig field: a JobConfig (src/shared/schemas/jobConfig.ts, in the document's components) or its
 * JSON text. The route takes text or an object; the server checks the decoded value against JobConfig.
 */
const Jconfig = () =>
  Type.Union(
    [
      Type.String({ description: 'the job as JSON text (at most 16 KB, nested at most 8 deep)' }),
      Type.Object({}, { description: 'the job as an object (JSON bodies)' }),
    ],
    {
      description: 'the job: a feature with its module_params, a preset or a workflow (JobConfig; JSON text in forms)',
      'x-schema': 'JobConfig',
    },
  );

/** Credits left after a call that spends one (also in the X-Credits-Left header). */
const CreditsLeft = Type.Integer({
  minimum: 0,
  description: 'credits left after this work’s charge (compress works: compress credits left)',
});

export const Transform = routeGroup('process', AUTH.tokenOrApi).post(
  '/web_api/v1/transform',
  'Starts a work on an upload (one credit)',
  {
    description:
      'jconfig names the feature and its parameters, `{"job": "enlarge", "config": {"module": "enlarge", "module_params": {"scale": 2}}}`, a preset, or a workflow of steps (JobConfig lists every feature’s params). The answer’s trans_id is polled with progress. Fields the call does not take are refused (reason fieldUnknown). The answer carries X-Credits-Charged and X-Credits-Left. Idempotency-Key (header, up to 255 printable characters, optional): a repeat of a start with the same key — a reloaded page resending it, or two racing — answers the first’s trans_id and charges nothing more (X-Credits-Charged 0); another account’s same key is its own start; the key sent again with another uid or jconfig is refused (HTTP 422, reason idempotencyKeyReused).',
    fields: Type.Object(
      {
        uid: Uid(),
        jconfig: Jconfig(),
        zoom_type: Type.Optional(
          Type.String({ pattern: '^[A-Za-z0-9_-]{0,32}$', description: 'a label the client keeps with the work' }),
        ),
        webhook_url: Type.Optional(WebhookUrl()),
      },
      { additionalProperties: false },
    ),
    data: Type.Object({ trans_id: TransId(), credits_left: Type.Optional(CreditsLeft) }),
    headers: { 200: CREDIT_HEADERS },
    example: {
      uid: '3f2c9a4e-8d1b-4c7e-9f00-1a2b3c4d5e6f',
      jconfig: '{"job":"enlarge","config":{"module":"enlarge","module_params":{"scale":2}}}',
    },
  },
);

/** The answer of a synchronous call whose work still runs when the wait ends: poll it by its trans_id. */
export const StillProcessing = Type.Object({
  reason: Type.Literal('stillProcessing'),
  trans_id: TransId(),
  status: Type.Literal('progress'),
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  queue_position: Type.Optional(Type.Integer({ description: '1-based place among queued works, while waiting' })),
  credits_left: CreditsLeft,
});

export const Process = routeGroup('process', AUTH.api).post(
  '/api/v1/process',
  'Processes one image and answers the result (upload, start, wait and download in one call)',
  {
    description: [
      'Send the image as `file` (multipart) or `url`, and the job as `jconfig` or as `feature` with the feature’s params as fields (`-F feature=enlarge -F scale=2`). The call waits for the work (at most `wait` seconds, 300 by default: the process limit) and answers the image itself, with Content-Type, Content-Disposition, X-Trans-Id, X-Credits-Charged and X-Credits-Left. One credit, the plan’s limits and the queue are those of upload + transform. An API token only.',
      'Refusals answer the envelope with data.reason and an HTTP status: 400 a field (fieldRequired, fieldInvalid, fieldUnknown, a jconfig rule), 401 no valid API token, 402 insufficient credits (code 10012), 403 a plan entitlement, 413 the file over the plan’s size (reason fileTooLarge, data.max in bytes), 422 the image over the plan’s pixels or sides, or the work failed (processFailed, processTimeout; refunded), 429 too many calls or waits at once.',
      'Still running when the wait ends: HTTP 202 with the work’s trans_id (reason stillProcessing) — poll GET /web_api/v1/progress and download it. A client that hangs up leaves the work running and charged once. Idempotency-Key (header, up to 255 printable characters): a repeat with the same key answers the same work, without a second upload or charge.',
    ].join('\n\n'),
    from: 'multipart',
    fields: Type.Object(
      {
        url: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 2048,
            description: 'an http(s) URL of a public JPG or PNG, instead of file',
          }),
        ),
        jconfig: Type.Optional(Jconfig()),
        feature: Type.Optional(
          Type.Enum([...JOB_NAMES.filter((j) => j !== 'workflow'), ...MATTING_ALIASES], {
            description: `a feature or preset, instead of jconfig; its params as further fields (${MATTING_ALIASES.join(' and ')} are other names of matting)`,
          }),
        ),
        size: Type.Optional(
          Type.Enum([...API_SIZES], {
            default: 'auto',
            description: `auto: a photo over your plan’s megapixels or side is scaled down to it, as the web app does (X-Input-Downscaled: true); full: refused instead (422); preview: scaled so the result is at most ${API_PREVIEW_MEGAPIXELS} MP, free of credit for ${API_FREE_PREVIEWS_PER_MONTH} results a month by default (X-Free-Previews-Left)`,
          }),
        ),
        format: Type.Optional(
          Type.Enum(['png', 'jpg', 'webp'], {
            description:
              'the result’s format (default: the feature’s own; a cut-out is PNG). png and webp keep a cut-out’s transparency; jpg is flattened on bg_color (white by default)',
          }),
        ),
        bg_color: Type.Optional(
          Type.String({
            maxLength: 16,
            pattern: '^(#?[0-9A-Fa-f]{3}|#?[0-9A-Fa-f]{6}|white|black|red|green|blue|gray|grey)$',
            description:
              'a colour behind a cut-out (hex rrggbb or rgb, # optional, or a basic name): the result is opaque',
            examples: ['81d4fa'],
          }),
        ),
        crop: Type.Optional(
          Type.Union([Type.Boolean(), Type.Enum(['true', 'false', '0', '1'])], {
            description: 'true: crop a cut-out to the subject’s box (its opaque pixels), with crop_margin around it',
          }),
        ),
        webhook_url: Type.Optional(WebhookUrl()),
        crop_margin: Type.Optional(
          Type.Integer({
            minimum: 0,
            maximum: 500,
            default: 0,
            description: 'px kept around the subject when cropping',
          }),
        ),
        wait: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: SYNC_WAIT_MAX_S,
            default: SYNC_WAIT_MAX_S,
            description: 'seconds to wait for the result before answering 202',
          }),
        ),
        ...featureParamFields(),
      },
      { additionalProperties: false },
    ),
    files: { file: { description: 'the image: JPG, JPEG or PNG (or send url)' } },
    file: { types: ['image/jpeg', 'image/png', 'image/webp'], description: 'The processed image, as an attachment' },
    headers: {
      200: {
        ...PROCESS_HEADERS,
        'X-Width': { description: 'the result’s width in px', type: 'integer' },
        'X-Height': { description: 'the result’s height in px', type: 'integer' },
        'X-Enlarge-Path': {
          description:
            'a work with an enlarge step: net (the chosen nets ran on every tile), fast_net (a pass ran on the fast net to fit the job limit) or resized (a pass was resized without AI: no net fitted the job limit)',
          type: 'string',
        },
      },
      202: {
        ...PROCESS_HEADERS,
        Location: { description: 'the progress call to poll', type: 'string' },
      },
    },
    statuses: {
      202: { description: 'The work still runs when the wait ends: poll it by data.trans_id', data: StillProcessing },
      402: { description: 'No credits left (code 10012, reason insufficientCredits)' },
      422: { description: 'The image is over the plan’s pixels or sides, or the work failed (refunded)' },
    },
    // the feature's params are fields too (`scale` here), typed per feature in JobConfig rather than in this type
    example: { feature: 'enlarge', scale: 2 } as { feature: 'enlarge' },
  },
);

/** Why a work failed, as a reason code (src/shared/domain/reasons.ts); the client translates it. */
export const FailureReason = Type.Enum([...WORK_FAILURES], {
  description:
    'why it failed, when fatal: outputTooLarge (the result would pass the largest side; the upload’s size times the scale), processTimeout, processFailed',
});

/** The path a finished enlargement took (issue 51: never a silent downgrade). */
export const EnlargePathField = Type.Enum([...ENLARGE_PATHS], {
  description:
    'once finished, a work with an enlarge step: net (the chosen nets ran on every tile), fast_net (a pass ran on the fast net to fit the job limit), resized (a pass was resized without AI: no net fitted the job limit)',
});

export const ProgressData = Type.Object({
  trans_id: TransId(),
  status: Type.Enum(['finish', 'fatal', 'progress'], {
    description: 'finish: done; fatal: failed; progress: queued or running',
  }),
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  step: Type.Integer({ description: '1-based step being run (workflows)' }),
  steps: Type.Integer(),
  queue_position: Type.Optional(Type.Integer({ description: '1-based place among queued works, while waiting' })),
  error: Type.Optional(Type.String({ description: '"timeout" or "Process failed", when fatal' })),
  reason: Type.Optional(FailureReason),
  result_w: Type.Optional(Type.Integer({ description: 'the result’s width, once finished' })),
  result_h: Type.Optional(Type.Integer()),
  enlarge_path: Type.Optional(EnlargePathField),
  seconds_left: Type.Optional(
    Type.Integer({
      minimum: 1,
      description:
        'while waiting or running: about how many seconds until it is done, from the photo’s megapixels, the feature, the scale and this server’s measured rate of that engine; a waiting work counts the running works and the works ahead of it in queue order, shared by the slots',
    }),
  ),
});

export const Progress = routeGroup('poll', AUTH.tokenOrApi).get(
  '/web_api/v1/progress',
  'A work’s progress (poll every few seconds until finish or fatal)',
  {
    fields: Type.Object({ trans_id: TransId() }),
    data: ProgressData,
    example: { trans_id: '7b1e0c52-93aa-4f6e-b0d2-5c4e8f9a1d30' },
  },
);
