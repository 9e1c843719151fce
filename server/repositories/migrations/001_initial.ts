import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/** Works on SQLite and PostgreSQL alike: only portable column types. */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = 'bigint' as const;
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: ColumnDefinitionBuilder) =>
    isPg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'integer', id)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.unique())
    .addColumn('password_hash', 'text')
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('occupation', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('plan_expires_at', ts)
    .addColumn('is_expired', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_num', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_num', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('compress_max', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('compress_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tokens')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('bound_account_id', 'integer', (c) => c.references('accounts.id'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tokens_account').on('tokens').column('account_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('uploads')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('filesize', 'integer', (c) => c.notNull())
    .addColumn('w', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('h', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('job', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('blob_key', 'text')
    .addColumn('original_key', 'text')
    .addColumn('sha256', 'text')
    .addColumn('thumb_key', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total_blob_num', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('received_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('source_url', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('deleted_at', ts)
    .execute();
  await db.schema.createIndex('uploads_account').on('uploads').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('upload_chunks')
    .addColumn('uid', 'text', (c) => c.notNull().references('uploads.uid'))
    .addColumn('blob_num', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_chunks_pk', ['uid', 'blob_num'])
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('trans_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('uid', 'text', (c) => c.notNull())
    .addColumn('job', 'text', (c) => c.notNull())
    .addColumn('is_workflow', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('steps_json', 'text', (c) => c.notNull())
    .addColumn('zoom_type', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('step_index', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('result_key', 'text')
    .addColumn('result_format', 'text')
    .addColumn('result_w', 'integer')
    .addColumn('result_h', 'integer')
    .addColumn('extras_json', 'text')
    .addColumn('thumbsup', 'integer')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('started_at', ts)
    .addColumn('finished_at', ts)
    .execute();
  await db.schema.createIndex('jobs_account').on('jobs').columns(['account_id', 'created_at']).execute();
  await db.schema.createIndex('jobs_status').on('jobs').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'integer', id)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  // One charge and at most one refund per trans_id, whatever retries happen.
  await db.schema.createIndex('credit_ledger_once').on('credit_ledger').columns(['ref', 'kind']).unique().execute();

  await db.schema
    .createTable('workflows')
    .addColumn('id', 'integer', id)
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('flows_json', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workflows_account').on('workflows').columns(['account_id', 'id']).execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'integer', id)
    .addColumn('account_id', 'integer')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload_json', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('download_bundles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('trans_ids_json', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'download_bundles',
    'events',
    'workflows',
    'credit_ledger',
    'jobs',
    'upload_chunks',
    'uploads',
    'sessions',
    'tokens',
    'accounts',
  ])
    await db.schema.dropTable(t).ifExists().execute();
}
