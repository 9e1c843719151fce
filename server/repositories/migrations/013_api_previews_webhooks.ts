import type { Kysely } from 'kysely';

/**
 * The developer API's free previews and completion webhooks (docs/api.md):
 * - api_free_previews: per account and month (UTC, 'YYYY-MM') the previews that cost no credit; one row
 *   counted up by an upsert that stops at the month's number, so racing calls never pass it.
 * - api_tokens.webhook_secret: the key's webhook signing secret (HMAC-SHA256), shown once with the key.
 * - api_webhooks: one row per work started with a webhook_url: where to POST when it ends, and how the
 *   deliveries went (tries, the last HTTP status or error, when the next try is due).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_free_previews')
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('month_key', 'text', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_free_previews_pk', ['account_id', 'month_key'])
    .execute();
  await db.schema.alterTable('api_tokens').addColumn('webhook_secret', 'text').execute();
  await db.schema
    .createTable('api_webhooks')
    .addColumn('trans_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    /** waiting (the work runs), sending (claimed until next_attempt_at), retry, delivered, failed */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('event', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('last_http', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_webhooks_due').on('api_webhooks').columns(['status', 'next_attempt_at']).execute();
  await db.schema
    .createIndex('api_webhooks_account')
    .on('api_webhooks')
    .columns(['account_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_webhooks').ifExists().execute();
  await db.schema.alterTable('api_tokens').dropColumn('webhook_secret').execute();
  await db.schema.dropTable('api_free_previews').ifExists().execute();
}
