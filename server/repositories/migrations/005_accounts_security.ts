import { createHash } from 'node:crypto';
import { type Kysely } from 'kysely';

/**
 * Tokens and sessions are stored only as SHA-256 hashes and expire (sliding), so the database holds
 * nothing a reader could log in with. Existing rows are hashed in place and get a fresh expiry.
 * Adds the per-email login throttle and the payment provider's reference and address on checkouts.
 */
const DAY = 24 * 60 * 60 * 1000;
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

export async function up(db: Kysely<any>): Promise<void> {
  const now = Date.now();
  await db.schema.alterTable('tokens').renameColumn('token', 'token_hash').execute();
  await db.schema
    .alterTable('tokens')
    .addColumn('expires_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('tokens').addColumn('session_hash', 'text').execute();
  for (const t of await db.selectFrom('tokens').select(['token_hash', 'kind']).execute()) {
    const ttl = t.kind === 'guest' ? 365 * DAY : 30 * DAY;
    await db
      .updateTable('tokens')
      .set({ token_hash: sha256(t.token_hash), expires_at: now + ttl })
      .where('token_hash', '=', t.token_hash)
      .execute();
  }
  await db.schema.createIndex('tokens_session').on('tokens').column('session_hash').execute();

  await db.schema.alterTable('sessions').renameColumn('id', 'id_hash').execute();
  for (const s of await db.selectFrom('sessions').select('id_hash').execute()) {
    await db
      .updateTable('sessions')
      .set({ id_hash: sha256(s.id_hash) })
      .where('id_hash', '=', s.id_hash)
      .execute();
  }
  await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();

  await db.schema
    .createTable('login_throttle')
    /** normalised email (also for addresses without an account, so answers don't tell which exist) */
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    /** lockouts in a row; each one doubles the next lock */
    .addColumn('lockouts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_throttle_updated').on('login_throttle').column('updated_at').execute();

  await db.schema.alterTable('payment_checkouts').addColumn('provider_ref', 'text').execute();
  await db.schema.alterTable('payment_checkouts').addColumn('url', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // Hashes cannot be turned back into tokens: going down drops every token and session.
  await db.deleteFrom('sessions').execute();
  await db.deleteFrom('tokens').execute();
  await db.schema.dropTable('login_throttle').ifExists().execute();
  await db.schema.dropIndex('sessions_account').ifExists().execute();
  await db.schema.dropIndex('tokens_session').ifExists().execute();
  await db.schema.alterTable('sessions').renameColumn('id_hash', 'id').execute();
  await db.schema.alterTable('tokens').dropColumn('session_hash').execute();
  await db.schema.alterTable('tokens').dropColumn('expires_at').execute();
  await db.schema.alterTable('tokens').renameColumn('token_hash', 'token').execute();
  await db.schema.alterTable('payment_checkouts').dropColumn('url').execute();
  await db.schema.alterTable('payment_checkouts').dropColumn('provider_ref').execute();
}
