import type { Kysely } from 'kysely';

/**
 * address_budgets: bytes uploaded without an account per client address group (clientAddress.ts) and
 * clock hour, so GUEST_BYTES_PER_HOUR holds across guest tokens and, on PostgreSQL, across API processes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('address_budgets')
    .addColumn('client_key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('address_budgets_pk', ['client_key', 'window_start'])
    .execute();
  await db.schema.createIndex('address_budgets_window').on('address_budgets').column('window_start').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('address_budgets').execute();
}
