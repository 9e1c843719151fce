/** Database access for the retention sweep and the leases of periodic tasks. Portable across SQLite and PostgreSQL. */
import type { Kysely } from 'kysely';
import type { Account, Database, Job, Upload } from './schema.js';

type Db = Kysely<Database>;

/**
 * Takes (or renews) the lease `name` for `holder` until now + ttlMs, unless another holder's lease is
 * still running. One conditional UPDATE decides, so two workers asking at once cannot both get it.
 */
export async function acquireLease(db: Db, name: string, holder: string, now: number, ttlMs: number): Promise<boolean> {
  await db
    .insertInto('leases')
    .values({ name, holder: '', expires_at: 0 })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const r = await db
    .updateTable('leases')
    .set({ holder, expires_at: now + ttlMs })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('holder', '=', holder)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Accounts with finished/failed works or uploads older than `before` whose blobs are still kept. */
export async function accountsWithOldItems(db: Db, before: number): Promise<Account[]> {
  const fromJobs = await db
    .selectFrom('jobs')
    .select('account_id')
    .distinct()
    .where('created_at', '<', before)
    .where('expired_at', 'is', null)
    .where('status', 'in', ['finished', 'failed'])
    .execute();
  const fromUploads = await db
    .selectFrom('uploads')
    .select('account_id')
    .distinct()
    .where('created_at', '<', before)
    .where('expired_at', 'is', null)
    .where('status', '=', 'ready')
    .execute();
  const ids = [...new Set([...fromJobs, ...fromUploads].map((r) => r.account_id))];
  const out: Account[] = [];
  for (let i = 0; i < ids.length; i += 500)
    out.push(
      ...(await db
        .selectFrom('accounts')
        .selectAll()
        .where('id', 'in', ids.slice(i, i + 500))
        .execute()),
    );
  return out;
}

/** Ended works of an account made before `before` whose result blobs are still kept. */
export async function expirableWorks(db: Db, accountId: number, before: number, limit: number): Promise<Job[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('created_at', '<', before)
    .where('expired_at', 'is', null)
    .where('status', 'in', ['finished', 'failed'])
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** The row stays (history, a clear "expired" answer); its blob keys go. */
export async function markWorksExpired(db: Db, transIds: readonly string[], now: number): Promise<void> {
  if (!transIds.length) return;
  await db
    .updateTable('jobs')
    .set({ expired_at: now, result_key: null, extras_json: null })
    .where('trans_id', 'in', transIds)
    .execute();
}

/** Stored uploads of an account made before `before`, kept, and no longer the source of a kept work. */
export async function expirableUploads(db: Db, accountId: number, before: number, limit: number): Promise<Upload[]> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('created_at', '<', before)
    .where('expired_at', 'is', null)
    .where('status', '=', 'ready')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('jobs')
            .select('jobs.trans_id')
            .whereRef('jobs.uid', '=', 'uploads.uid')
            .where('jobs.expired_at', 'is', null),
        ),
      ),
    )
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

export async function markUploadsExpired(db: Db, uids: readonly string[], now: number): Promise<void> {
  if (!uids.length) return;
  await db.updateTable('uploads').set({ expired_at: now }).where('uid', 'in', uids).execute();
  await db
    .updateTable('uploads')
    .set({ deleted_at: now })
    .where('uid', 'in', uids)
    .where('deleted_at', 'is', null)
    .execute();
}
