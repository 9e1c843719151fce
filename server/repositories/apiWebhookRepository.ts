/**
 * Completion webhooks of the developer API (migration 013): one row per work started with a webhook_url,
 * and the key's signing secret (api_tokens.webhook_secret). A row is claimed by a conditional UPDATE (the
 * status and due time it was read with), so of several API processes exactly one sends each try.
 */
import type { Kysely } from 'kysely';
import type { Db } from './db.js';
import type { Database } from './schema.js';

export type WebhookStatus = 'waiting' | 'sending' | 'retry' | 'delivered' | 'failed';

interface ApiWebhooksTable {
  trans_id: string;
  account_id: number;
  url: string;
  status: WebhookStatus;
  /** work.finished or work.failed, once the work ended */
  event: string | null;
  attempts: number;
  next_attempt_at: number;
  last_http: number | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}
type WebhookTables = {
  api_webhooks: ApiWebhooksTable;
  api_tokens: { account_id: number; webhook_secret: string | null };
};
const tables = (db: Db): Kysely<Database & WebhookTables> => db.withTables<WebhookTables>();

export type WebhookRow = ApiWebhooksTable;

/** A webhook for a work just started (the same transaction as its insert, so a refused start leaves none). */
export async function insertWebhook(db: Db, row: { trans_id: string; account_id: number; url: string; now: number }) {
  await tables(db)
    .insertInto('api_webhooks')
    .values({
      trans_id: row.trans_id,
      account_id: row.account_id,
      url: row.url,
      status: 'waiting',
      event: null,
      attempts: 0,
      next_attempt_at: row.now,
      last_http: null,
      last_error: null,
      created_at: row.now,
      delivered_at: null,
    })
    .onConflict((oc) => oc.column('trans_id').doNothing())
    .execute();
}

/** Rows whose work ended (waiting) or whose next try is due (retry, or a sender that stopped mid-try), oldest first. */
export async function dueWebhooks(db: Db, now: number, limit: number) {
  return tables(db)
    .selectFrom('api_webhooks as w')
    .innerJoin('jobs as j', 'j.trans_id', 'w.trans_id')
    .select([
      'w.trans_id',
      'w.account_id',
      'w.url',
      'w.status',
      'w.attempts',
      'w.next_attempt_at',
      'j.status as job_status',
      'j.error as job_error',
      'j.result_w',
      'j.result_h',
      'j.job',
    ])
    .where((eb) =>
      eb.or([
        eb.and([eb('w.status', '=', 'waiting'), eb('j.status', 'in', ['finished', 'failed'])]),
        eb.and([eb('w.status', 'in', ['retry', 'sending']), eb('w.next_attempt_at', '<=', now)]),
      ]),
    )
    .orderBy('w.next_attempt_at')
    .limit(limit)
    .execute();
}

/** Takes a row for one try: true for the one caller whose read still holds. */
export async function claimWebhook(
  db: Db,
  seen: { trans_id: string; status: WebhookStatus; next_attempt_at: number },
  leaseUntil: number,
): Promise<boolean> {
  const r = await tables(db)
    .updateTable('api_webhooks')
    .set({ status: 'sending', next_attempt_at: leaseUntil })
    .where('trans_id', '=', seen.trans_id)
    .where('status', '=', seen.status)
    .where('next_attempt_at', '=', seen.next_attempt_at)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The outcome of a try. */
export async function recordTry(
  db: Db,
  transId: string,
  t: {
    status: 'delivered' | 'retry' | 'failed';
    event: string;
    attempts: number;
    nextAt: number;
    http: number | null;
    error: string | null;
    now: number;
  },
) {
  await tables(db)
    .updateTable('api_webhooks')
    .set({
      status: t.status,
      event: t.event,
      attempts: t.attempts,
      next_attempt_at: t.nextAt,
      last_http: t.http,
      last_error: t.error,
      delivered_at: t.status === 'delivered' ? t.now : null,
    })
    .where('trans_id', '=', transId)
    .execute();
}

/** The account's latest deliveries, newest first (the account's API page). */
export async function listWebhooks(db: Db, accountId: number, limit: number): Promise<WebhookRow[]> {
  return tables(db)
    .selectFrom('api_webhooks')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

export async function webhookSecret(db: Db, accountId: number): Promise<string | null> {
  const row = await tables(db)
    .selectFrom('api_tokens')
    .select('webhook_secret')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.webhook_secret ?? null;
}

/** Sets the key's secret where it has none (false: it had one, or there is no key). */
export async function setWebhookSecret(db: Db, accountId: number, secret: string, replace: boolean): Promise<boolean> {
  let q = tables(db).updateTable('api_tokens').set({ webhook_secret: secret }).where('account_id', '=', accountId);
  if (!replace) q = q.where('webhook_secret', 'is', null);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
