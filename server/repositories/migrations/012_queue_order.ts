import type { Kysely } from 'kysely';

/**
 * jobs.queue_class: where a waiting work stands in the queue (src/shared/domain/queueOrder.ts: level and
 * the account's turn; 0 the front). Works stored before keep 0 and so run first, oldest first, as they
 * would have. jobs.client_key: the address group a guest's work was started from (null for accounts), so
 * the guest works of one address are capped together (GUEST_WORKS_PER_ADDRESS).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('queue_class', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('jobs').addColumn('client_key', 'text').execute();
  await db.schema.createIndex('jobs_client_key').on('jobs').columns(['client_key', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_client_key').execute();
  for (const c of ['client_key', 'queue_class']) await db.schema.alterTable('jobs').dropColumn(c).execute();
}
