import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/** Profile/settings columns and per-account promotion records (share codes, check-ins, countdowns). */
export async function up(db: Kysely<any>): Promise<void> {
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: ColumnDefinitionBuilder) =>
    isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  await db.schema
    .alterTable('accounts')
    .addColumn('occupation_other', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('mail_optouts')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('promotions')
    .addColumn('id', 'integer', id)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    /** share_code, share_bind:<type>, checkin, count_down */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** distinguishes several rows of one kind (the UTC day for check-ins); '' otherwise */
    .addColumn('key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('value', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('promotions_once')
    .on('promotions')
    .columns(['account_id', 'kind', 'key'])
    .unique()
    .execute();
  await db.schema.createIndex('promotions_value').on('promotions').columns(['kind', 'value']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('promotions').ifExists().execute();
  await db.schema.dropTable('mail_optouts').ifExists().execute();
  for (const c of ['occupation_other', 'locale', 'currency'])
    await db.schema.alterTable('accounts').dropColumn(c).execute();
}
