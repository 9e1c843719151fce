import { PostgresAdapter, type Kysely } from 'kysely';

/** Messages sent through the contact form, read by the operator (npm run admin -- messages). */
export async function up(db: Kysely<unknown>): Promise<void> {
  // PostgreSQL has no AUTOINCREMENT: an identity column there (as in 001/002), SQLite's rowid alias here.
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('contact_messages')
    .addColumn('id', 'integer', (c) =>
      isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_messages_created').on('contact_messages').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('contact_messages').execute();
}
