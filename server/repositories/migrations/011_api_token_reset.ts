import type { Kysely } from 'kysely';

/**
 * api_tokens.reset_at: when the token was last replaced by a reset (null: never, only created). Resets
 * of one account within a moment of each other are one reset (docs/api.md): the first answers the new
 * token, the others a conflict, instead of each answering a token that the next one replaces.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_tokens').addColumn('reset_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_tokens').dropColumn('reset_at').execute();
}
