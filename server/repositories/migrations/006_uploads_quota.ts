import type { Kysely } from 'kysely';

/**
 * Uploads quota and retention:
 * - upload_chunks.blob_key: each slice write goes to a key of its own, so concurrent copies of one
 *   slice never share a file (null = the older derived key);
 * - uploads.expired_at / jobs.expired_at: when retention removed the blobs (rows stay, so lists and
 *   downloads can answer "expired" instead of "not found");
 * - leases: one row per periodic task (retention), so of several workers only one runs it at a time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('upload_chunks').addColumn('blob_key', 'text').execute();
  await db.schema.alterTable('uploads').addColumn('expired_at', 'bigint').execute();
  await db.schema.alterTable('jobs').addColumn('expired_at', 'bigint').execute();
  await db.schema.createIndex('uploads_created').on('uploads').column('created_at').execute();
  await db.schema.createIndex('jobs_created').on('jobs').column('created_at').execute();
  await db.schema
    .createTable('leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('leases').ifExists().execute();
  await db.schema.dropIndex('jobs_created').ifExists().execute();
  await db.schema.dropIndex('uploads_created').ifExists().execute();
  await db.schema.alterTable('jobs').dropColumn('expired_at').execute();
  await db.schema.alterTable('uploads').dropColumn('expired_at').execute();
  await db.schema.alterTable('upload_chunks').dropColumn('blob_key').execute();
}
