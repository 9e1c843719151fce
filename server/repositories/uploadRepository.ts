/** Database access for uploads and their slices. Portable across SQLite and PostgreSQL. */
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, Upload, UploadsTable } from './schema.js';

type Db = Kysely<Database>;

export type UploadStatus = Upload['status'];

/**
 * The one "upload of this account" lookup: another account's uid answers like a missing one.
 * `statuses` narrows it (jobs and downloads want 'ready'); deleted rows are left out unless asked for.
 */
export async function findOwnedUpload(
  db: Db,
  accountId: number,
  uid: string,
  opts: { statuses?: readonly UploadStatus[]; withDeleted?: boolean } = {},
): Promise<Upload | undefined> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('uid', '=', uid)
    .where('account_id', '=', accountId)
    .$if(!!opts.statuses, (q) => q.where('status', 'in', opts.statuses!))
    .$if(!opts.withDeleted, (q) => q.where('deleted_at', 'is', null))
    .executeTakeFirst();
}

/** An upload by uid whoever owns it (the runner reads the source of a work it was given). */
export async function findUpload(db: Db, uid: string): Promise<Upload | undefined> {
  return db.selectFrom('uploads').selectAll().where('uid', '=', uid).executeTakeFirst();
}

export async function insertUpload(db: Db, row: Insertable<UploadsTable>): Promise<void> {
  await db.insertInto('uploads').values(row).execute();
}

/** The stored and validated upload: status ready with its blobs and dimensions. */
export async function markReady(
  db: Db,
  uid: string,
  v: Pick<Upload, 'filesize' | 'w' | 'h' | 'format' | 'blob_key' | 'original_key' | 'sha256' | 'thumb_key'>,
): Promise<void> {
  await db
    .updateTable('uploads')
    .set({ ...v, status: 'ready' })
    .where('uid', '=', uid)
    .execute();
}

/** receiving → assembling, once: true for the one caller that may assemble. */
export async function claimAssembly(db: Db, uid: string): Promise<boolean> {
  const r = await db
    .updateTable('uploads')
    .set({ status: 'assembling' })
    .where('uid', '=', uid)
    .where('status', '=', 'receiving')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function markDeleted(db: Db, uids: readonly string[], now: number, accountId?: number): Promise<void> {
  if (!uids.length) return;
  await db
    .updateTable('uploads')
    .set({ deleted_at: now })
    .where('uid', 'in', uids)
    .where('deleted_at', 'is', null)
    .$if(accountId !== undefined, (q) => q.where('account_id', '=', accountId!))
    .execute();
}

export interface ChunkRow {
  blob_num: number;
  blob_key: string | null;
}

export async function findChunk(db: Db, uid: string, blobNum: number): Promise<ChunkRow | undefined> {
  return db
    .selectFrom('upload_chunks')
    .select(['blob_num', 'blob_key'])
    .where('uid', '=', uid)
    .where('blob_num', '=', blobNum)
    .executeTakeFirst();
}

export async function chunksOf(db: Db, uid: string): Promise<ChunkRow[]> {
  return db
    .selectFrom('upload_chunks')
    .select(['blob_num', 'blob_key'])
    .where('uid', '=', uid)
    .orderBy('blob_num')
    .execute();
}

/** Records a stored slice and counts its bytes, once per (uid, blob_num): false when it was already there. */
export async function insertChunk(
  db: Db,
  uid: string,
  blobNum: number,
  size: number,
  blobKey: string,
  now: number,
): Promise<boolean> {
  const ins = await db
    .insertInto('upload_chunks')
    .values({ uid, blob_num: blobNum, size, created_at: now, blob_key: blobKey })
    .onConflict((oc) => oc.columns(['uid', 'blob_num']).doNothing())
    .executeTakeFirst();
  if (Number(ins.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
  await db
    .updateTable('uploads')
    .set({ received_bytes: sql`received_bytes + ${size}` })
    .where('uid', '=', uid)
    .execute();
  return true;
}

/** Sliced uploads still receiving or assembling that were started before `before`. */
export async function unfinishedBefore(db: Db, before: number, limit: number): Promise<Upload[]> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('status', 'in', ['receiving', 'assembling'])
    .where('deleted_at', 'is', null)
    .where('created_at', '<', before)
    .limit(limit)
    .execute();
}

/** Ready uploads of an account made since `since`, newest first. */
export async function listReady(db: Db, accountId: number, since: number, limit: number): Promise<Upload[]> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('status', '=', 'ready')
    .where('deleted_at', 'is', null)
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .orderBy('uid')
    .limit(limit)
    .execute();
}

export async function liveOwned(db: Db, accountId: number, uids: readonly string[]): Promise<Upload[]> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('uid', 'in', uids)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Those of `uids` that a work refers to (its source, its preview's "before" image). */
export async function usedByWorks(db: Db, uids: readonly string[]): Promise<Set<string>> {
  if (!uids.length) return new Set();
  return new Set((await db.selectFrom('jobs').select('uid').where('uid', 'in', uids).execute()).map((r) => r.uid));
}

/** What the upload quota looks at: uploads started since `since` (deleted ones too) and bytes kept now. */
export async function quotaUsage(
  db: Db,
  accountId: number,
  since: number,
): Promise<{ recent: number; storedBytes: number }> {
  const recent = await db
    .selectFrom('uploads')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('account_id', '=', accountId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  const stored = await db
    .selectFrom('uploads')
    .select((eb) => eb.fn.sum<string | number | null>('received_bytes').as('b'))
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { recent: Number(recent.n), storedBytes: Number(stored.b ?? 0) };
}

/**
 * Takes the account row's write lock for the rest of the transaction (a no-op update: row lock on
 * PostgreSQL, the database write lock on SQLite), so quota checks and inserts of one account queue up.
 */
export async function lockAccount(db: Db, accountId: number): Promise<void> {
  await db
    .updateTable('accounts')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', accountId)
    .execute();
}
