/** Processing (spec §7): start a work (transform), poll its progress, and the synchronous process call. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SMALLEST_API_PLAN } from '../../../src/shared/domain/apiPlans.js';
import { CODE } from '../../../src/shared/domain/codes.js';
import { isReason, type Reason } from '../../../src/shared/domain/reasons.js';
import { TOKEN_FIELDS } from '../../../src/shared/schemas/common.js';
import { Process, Progress, SYNC_WAIT_MAX_S, Transform } from '../../../src/shared/schemas/processing.js';
import type { AppContext } from '../../context.js';
import { ApiError, unauthorized } from '../../errors.js';
import { fieldRefusal } from '../../services/schemaCheck.js';
import type { Principal } from '../../services/tokens.js';
import { checkWebhookUrl } from '../../services/webhooks.js';
import { ok } from '../envelope.js';
import { isApiRequest, principalOf, principalOfFields, tokenOf } from '../auth.js';
import { pollLogLevel } from '../logging.js';
import { fieldsOf, readMultipart, str } from '../params.js';
import { checkFields, route } from '../schemaRoute.js';
import { sendResultFile } from './downloads.js';

/** The site's pricing page (plans and API packs). */
const PRICING_PATH = '/pricing/';

/** The credits a work charged and the credits left after it, as headers (transform and process answers). */
function creditHeaders(reply: FastifyReply, charged: number, left: number) {
  reply.header('x-credits-charged', charged).header('x-credits-left', left);
}

/**
 * The synchronous call answers refusals with an HTTP status that says what went wrong (the four-call
 * flow keeps the spec's HTTP 200 with code 10001): by reason, else 402 for no credits, else 400.
 */
const SYNC_STATUS: Partial<Record<Reason, number>> = {
  fileTooLarge: 413,
  storageFull: 413,
  imageTooLarge: 422,
  imageTooLong: 422,
  planMegapixels: 422,
  planSide: 422,
  outputTooLarge: 422,
  processFailed: 422,
  processTimeout: 422,
  psdProOnly: 403,
  bestColorizeProOnly: 403,
  scaleSubscribersOnly: 403,
  bestEnlargeSubscribersOnly: 403,
  batchLimit: 429,
  batchSubscribersOnly: 429,
  uploadRateLimited: 429,
};

/** The plan that allows what an entitlement refusal names (the developer API's refusals say what to do). */
const PLAN_THAT_ALLOWS: Partial<Record<Reason, 'basic' | 'pro'>> = {
  scaleSubscribersOnly: 'basic',
  bestEnlargeSubscribersOnly: 'basic',
  batchSubscribersOnly: 'basic',
  psdProOnly: 'pro',
  bestColorizeProOnly: 'pro',
  planMegapixels: 'pro',
  planSide: 'pro',
  imageTooLarge: 'pro',
  imageTooLong: 'pro',
};

/**
 * A refusal of the process call that money would lift (402 no credits, 403 a plan entitlement, 422 over the
 * plan's size) names what to do: data.pricing_url, and the pack (data.api_plan) or plan (data.plan) that
 * allows it; no credits also says size=preview is free while free previews are left.
 */
function withWhatToDo(ctx: AppContext, data: unknown, status: number): unknown {
  if (!data || typeof data !== 'object' || ![402, 403, 422].includes(status)) return data;
  const reason = (data as { reason?: unknown }).reason;
  const plan = isReason(reason) ? PLAN_THAT_ALLOWS[reason] : undefined;
  if (status !== 402 && !plan) return data;
  const pricing_url = new URL(PRICING_PATH, ctx.config.publicUrl).href;
  return status === 402
    ? { ...data, pricing_url, api_plan: SMALLEST_API_PLAN, try_size: 'preview' }
    : { ...data, pricing_url, plan };
}

function syncStatus(e: ApiError): number {
  if (e.httpStatus !== 200) return e.httpStatus;
  const reason = (e.data as { reason?: unknown } | null)?.reason;
  if (isReason(reason) && SYNC_STATUS[reason]) return SYNC_STATUS[reason];
  return e.code === CODE.INSUFFICIENT_CREDITS ? 402 : 400;
}

/** The process call's own fields (the rest, tokens aside, are the feature's params). */
const OWN_FIELDS = new Set<string>([
  'url',
  'jconfig',
  'feature',
  'wait',
  'size',
  'format',
  'bg_color',
  'crop',
  'crop_margin',
  'webhook_url',
  ...TOKEN_FIELDS,
]);

export async function processingRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { jobs } = ctx.services;
  const authenticate = (req: Parameters<typeof principalOf>[0]) => principalOf(req, ctx);

  route(app, Transform, { authenticate }, async (f, req, reply) => {
    const p = await principalOf(req, ctx);
    const webhook = webhookOf(req, f.webhook_url);
    // Idempotency-Key (issue 47): a repeat of a start answers the first's work, charged once.
    const key = req.headers['idempotency-key'];
    const { trans_id, charged, credits_left } =
      typeof key === 'string' ? await jobs.transformOnce(p, f, key) : await jobs.transform(p, f);
    if (webhook) await ctx.services.webhooks.register(p, trans_id, webhook);
    creditHeaders(reply, charged, credits_left);
    return ok({ trans_id, credits_left });
  });

  // Polled every few seconds by every open tab: the token, its account and the work in one database
  // round trip; its request log lines only at warn and above (errors stay logged).
  route(app, Progress, { logLevel: pollLogLevel(ctx.config.logLevel), authenticate }, async (f, req) => {
    // An API token's call was admitted with its account already read (auth.ts): the work is read by owner.
    if (isApiRequest(req)) return ok(await jobs.progress(await principalOf(req, ctx), f.trans_id));
    const { job } = await ctx.services.tokens.resolveWithProgress(tokenOf(req), f.trans_id);
    return ok(await jobs.progressOf(job));
  });

  /** A webhook_url checked (API keys only: a site's guest cannot make the server call out). */
  function webhookOf(req: FastifyRequest, url: string | undefined): string | undefined {
    if (url === undefined) return undefined;
    if (!isApiRequest(req)) throw fieldRefusal('fieldInvalid', 'webhook_url', 'sent with an API key');
    return checkWebhookUrl(url, ctx.config.allowPrivateUrls);
  }

  /** The caller of the process call: an API token (header or field), never a site token. */
  async function apiCaller(req: FastifyRequest, fields?: Record<string, string>): Promise<Principal> {
    const p = fields ? await principalOfFields(req, ctx, fields) : await principalOf(req, ctx);
    if (!isApiRequest(req)) throw unauthorized();
    return p;
  }

  route(app, Process, { authenticate: (req) => apiCaller(req) }, async (_f, req, reply) => {
    try {
      // The token is checked before a file part is read (readMultipart); forms and JSON carry a url.
      let p: Principal | undefined;
      let raw: Record<string, unknown>;
      let file: { data: Buffer; filename: string } | undefined;
      if (req.isMultipart()) {
        const mp = await readMultipart(req, async (fields) => {
          p = await apiCaller(req, fields);
        });
        raw = mp.fields;
        file = mp.files.file ? { data: mp.files.file.data, filename: mp.files.file.filename } : undefined;
      } else {
        raw = await fieldsOf(req);
        p = await apiCaller(req);
      }
      const f = checkFields(Process, raw);
      const params = Object.fromEntries(Object.entries(f).filter(([k]) => !OWN_FIELDS.has(k)));
      // The wait ends early when the client hangs up; the work runs on (its credit charged once).
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      const out = await ctx.services.process.run(p!, {
        file,
        url: f.url,
        jconfig: f.jconfig,
        feature: f.feature,
        params,
        wait: f.wait ?? SYNC_WAIT_MAX_S,
        size: f.size,
        webhookUrl: webhookOf(req, f.webhook_url),
        output: {
          format: f.format,
          bgColor: f.bg_color,
          crop: f.crop === true || f.crop === 'true' || f.crop === '1',
          cropMargin: f.crop_margin,
        },
        idempotencyKey: str(req.headers['idempotency-key']),
        signal: gone.signal,
      });
      if (gone.signal.aborted)
        req.log.info({ transId: out.transId }, 'process: the client left while waiting; the work runs on');
      reply.header('x-trans-id', out.transId);
      creditHeaders(reply, out.charged, out.creditsLeft);
      reply.header('x-input-downscaled', String(out.sizing.downscaled));
      if (out.sizing.freePreviewsLeft !== undefined) reply.header('x-free-previews-left', out.sizing.freePreviewsLeft);
      if (out.status === 'running') {
        const { trans_id, progress, queue_position } = out.progress;
        reply.status(202).header('location', `/web_api/v1/progress?trans_id=${encodeURIComponent(trans_id)}`);
        return ok({
          reason: 'stillProcessing' as const,
          trans_id,
          status: 'progress' as const,
          progress,
          ...(queue_position === undefined ? {} : { queue_position }),
          credits_left: out.creditsLeft,
        });
      }
      reply.header('x-width', out.w).header('x-height', out.h);
      if (out.enlargePath) reply.header('x-enlarge-path', out.enlargePath);
      return sendResultFile(ctx, reply, out.file, 'attachment');
    } catch (e) {
      if (e instanceof ApiError) {
        const status = syncStatus(e);
        throw new ApiError(e.code, e.message, status, withWhatToDo(ctx, e.data, status));
      }
      throw e;
    }
  });
}
