import type { Kysely } from 'kysely';

/** Events are pruned by age (EVENTS_RETENTION_DAYS): an index on their time keeps that cheap. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('events_created').on('events').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_created').ifExists().execute();
}
