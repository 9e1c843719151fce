/**
 * Completion webhooks of the developer API (docs/api.md "Webhooks"): a work started with `webhook_url` (the
 * process call or transform, with an API key) gets one POST when it finishes or fails, signed with the key's
 * webhook secret (HMAC-SHA256 over `<timestamp>.<body>`, header Pixmill-Signature: t=…,v1=…), retried with
 * backoff (WEBHOOK_TRIES tries, API_WEBHOOK_RETRY_MS × 4^n apart) until a 2xx answer.
 *
 * - Both run modes: the sender reads the rows (api_webhooks joined with jobs) every WEBHOOK_POLL_MS in every
 *   API process; a try is claimed by a conditional UPDATE with a lease, so exactly one process sends it, and a
 *   process that stops mid-try leaves the row due again when the lease ends.
 * - SSRF: the same rule as upload_url (remoteImage.ts's isPrivateAddress), checked on the address the socket
 *   connects to (after DNS); no redirects are followed. ALLOW_PRIVATE_URLS (tests only) lets it reach loopback.
 * - Bounded: a 10 s timeout per try, at most WEBHOOK_BATCH tries at once per process, the answer's body unread.
 */
import { createHmac, randomBytes } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isPrivateAddress } from '../repositories/remoteImage.js';
import {
  claimWebhook,
  dueWebhooks,
  insertWebhook,
  listWebhooks,
  recordTry,
  setWebhookSecret,
  webhookSecret,
} from '../repositories/apiWebhookRepository.js';
import { fieldRefusal } from './schemaCheck.js';
import type { ServiceBase } from './base.js';
import type { Principal } from './tokens.js';

/** Tries per delivery (the first and its retries). */
const WEBHOOK_TRIES = 5;
/** How often an API process looks for ended works and due retries. */
const WEBHOOK_POLL_MS = 250;
/** Tries at once per process, and the longest a try may take. */
const WEBHOOK_BATCH = 8;
const WEBHOOK_TIMEOUT_MS = 10_000;
/** The header with the signature, and the prefix of a webhook secret. */
const WEBHOOK_SIGNATURE_HEADER = 'pixmill-signature';
const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>`: what a receiver recomputes. */
function signWebhook(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** The delay before try `n + 1` after `n` failed tries: base × 4^(n−1) (base, 4×, 16×, 64×). */
const retryDelay = (baseMs: number, failedTries: number) => baseMs * 4 ** Math.max(0, failedTries - 1);

/** A webhook_url as the server will call it: http(s), no user info, at most 2048 characters, not a private IP literal. */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw fieldRefusal('fieldInvalid', 'webhook_url', 'an http or https URL');
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || raw.length > 2048)
    throw fieldRefusal('fieldInvalid', 'webhook_url', 'an http or https URL without a user name');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && net.isIP(host) && isPrivateAddress(host))
    throw fieldRefusal('fieldInvalid', 'webhook_url', 'a public address (private and loopback addresses are refused)');
  return u.href;
}

export interface WebhookView {
  trans_id: string;
  url: string;
  status: string;
  event: string | null;
  attempts: number;
  last_http: number | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

type Due = Awaited<ReturnType<typeof dueWebhooks>>[number];

export class WebhookService {
  private timer: NodeJS.Timeout | undefined;
  private running = 0;
  private ticking = false;

  constructor(private readonly deps: ServiceBase) {}

  /** Starts looking for ended works and due retries (idempotent). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), WEBHOOK_POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A new secret for the account's key (shown once, in the api_token answer that made it). */
  async newSecret(accountId: number, replace: boolean): Promise<string | null> {
    const secret = `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
    return (await setWebhookSecret(this.deps.db, accountId, secret, replace)) ? secret : null;
  }

  /** Registers the webhook of a work the caller just started. */
  async register(p: Principal, transId: string, url: string): Promise<void> {
    await insertWebhook(this.deps.db, { trans_id: transId, account_id: p.accountId, url, now: Date.now() });
  }

  async list(p: Principal, limit = 50): Promise<WebhookView[]> {
    return (await listWebhooks(this.deps.db, p.accountId, limit)).map((r) => ({
      trans_id: r.trans_id,
      url: r.url,
      status: r.status,
      event: r.event,
      attempts: Number(r.attempts),
      last_http: r.last_http === null ? null : Number(r.last_http),
      last_error: r.last_error,
      created_at: Number(r.created_at),
      delivered_at: r.delivered_at === null ? null : Number(r.delivered_at),
    }));
  }

  /** One look: claims due rows (up to the free places) and sends them. */
  async tick(): Promise<void> {
    if (this.ticking || this.running >= WEBHOOK_BATCH) return;
    this.ticking = true;
    try {
      const now = Date.now();
      const rows = await dueWebhooks(this.deps.db, now, WEBHOOK_BATCH - this.running);
      for (const row of rows) {
        const seen = { trans_id: row.trans_id, status: row.status, next_attempt_at: Number(row.next_attempt_at) };
        if (!(await claimWebhook(this.deps.db, seen, now + WEBHOOK_TIMEOUT_MS * 3))) continue;
        this.running++;
        void this.deliver(row).finally(() => this.running--);
      }
    } catch {
      // the database is away for a moment (a restart, a pool at its limit): the next look tries again
    } finally {
      this.ticking = false;
    }
  }

  private async deliver(row: Due): Promise<void> {
    const failed = row.job_status === 'failed';
    const event = failed ? 'work.failed' : 'work.finished';
    const base = this.deps.config.publicUrl;
    const body = JSON.stringify({
      event,
      trans_id: row.trans_id,
      status: failed ? 'fatal' : 'finish',
      job: row.job,
      ...(failed
        ? { reason: row.job_error === 'timeout' ? 'processTimeout' : 'processFailed' }
        : {
            result_w: row.result_w,
            result_h: row.result_h,
            download_url: new URL(`/web_api/v1/download/?trans_id=${encodeURIComponent(row.trans_id)}`, base).href,
          }),
      progress_url: new URL(`/web_api/v1/progress?trans_id=${encodeURIComponent(row.trans_id)}`, base).href,
    });
    const attempts = Number(row.attempts) + 1;
    const now = () => Date.now();
    const secret = (await webhookSecret(this.deps.db, row.account_id)) ?? '';
    const timestamp = Math.floor(now() / 1000);
    let http_: number | null = null;
    let error: string | null = null;
    try {
      http_ = await post(
        row.url,
        body,
        {
          'content-type': 'application/json',
          'user-agent': 'Pixmill-Webhook/1',
          'pixmill-event': event,
          [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, timestamp, body),
        },
        this.deps.config.allowPrivateUrls,
      );
      if (http_ < 200 || http_ >= 300) error = `HTTP ${http_}`;
    } catch (e) {
      error = e instanceof Error ? e.message.slice(0, 200) : 'failed';
    }
    const privateRefused = error === 'urlPrivate';
    const status = error === null ? 'delivered' : attempts >= WEBHOOK_TRIES || privateRefused ? 'failed' : 'retry';
    await recordTry(this.deps.db, row.trans_id, {
      status,
      event,
      attempts,
      nextAt: status === 'retry' ? now() + retryDelay(this.deps.config.apiWebhookRetryMs, attempts) : now(),
      http: http_,
      error,
      now: now(),
    }).catch(() => undefined);
  }
}

/** One POST: the connected address checked like upload_url's, no redirects followed, the answer's status. */
function post(url: string, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const lookup: net.LookupFunction = (hostname, options, cb) => {
      dns.lookup(hostname, { ...options, all: false }, (err, address, family) => {
        if (err) return cb(err, '', 0);
        if (!allowPrivate && isPrivateAddress(address as string)) return cb(new Error('urlPrivate'), '', 0);
        cb(null, address, family);
      });
    };
    const host = u.hostname.replace(/^\[|\]$/g, '');
    if (!allowPrivate && net.isIP(host) && isPrivateAddress(host)) return reject(new Error('urlPrivate'));
    const req = (u.protocol === 'https:' ? https : http).request(
      u,
      {
        method: 'POST',
        lookup,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        timeout: WEBHOOK_TIMEOUT_MS,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}
