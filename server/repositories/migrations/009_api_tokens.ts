import type { Kysely } from 'kysely';

/**
 * The developer API: one API token per account (only its SHA-256 is stored, with its last four
 * characters so the account page can show which token is live), its last use and calls this month;
 * and the API credit packs an account was granted (by purchase or by an operator), each applied once
 * (primary key = the grant's reference).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('account_id', 'integer', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    /** 'YYYY-MM' (UTC) of the month calls_month counts */
    .addColumn('calls_month_key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('calls_month', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('api_credit_grants')
    .addColumn('ref', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('api_plan', 'text', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_credit_grants_account').on('api_credit_grants').column('account_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_credit_grants').ifExists().execute();
  await db.schema.dropTable('api_tokens').ifExists().execute();
}
