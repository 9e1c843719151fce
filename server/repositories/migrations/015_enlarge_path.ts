import type { Kysely } from 'kysely';

/**
 * jobs.enlarge_path: the path a finished work's enlargement took (src/shared/domain/enlargePath.ts: net,
 * fast_net, resized), so the history keeps what the progress answer told (issue 51: never a silent
 * downgrade). NULL for a work without an enlarge step and for works finished before this column.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('enlarge_path', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('enlarge_path').execute();
}
