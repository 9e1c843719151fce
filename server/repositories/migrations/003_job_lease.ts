import type { Kysely } from 'kysely';

/**
 * Job lease: which runner holds a running work and when it last said so. Lets several runners share
 * one database (scale-out) and still recover the works of a runner that died, without taking live ones.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('runner_id', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('heartbeat_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ['heartbeat_at', 'runner_id']) await db.schema.alterTable('jobs').dropColumn(c).execute();
}
