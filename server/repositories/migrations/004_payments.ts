import { type Kysely } from 'kysely';

/**
 * Plans and payments: checkouts opened through a payment provider, the provider's webhook events
 * (primary key = provider + event id, so a replayed event is recognised and changes nothing), and
 * the occupation survey's answers on the account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('survey_json', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('payment_checkouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    /** price in minor units of the currency (cents; yen) so no float is stored */
    .addColumn('amount_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    /** open → paid (webhook) | cancelled */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text')
    .addColumn('medium', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('payment_checkouts_account')
    .on('payment_checkouts')
    .columns(['account_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('payment_events')
    /** `<provider>:<provider's event id>` */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('account_id', 'integer')
    .addColumn('checkout_id', 'text')
    .addColumn('payload_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_events').ifExists().execute();
  await db.schema.dropTable('payment_checkouts').ifExists().execute();
  await db.schema.alterTable('accounts').dropColumn('survey_json').execute();
}
