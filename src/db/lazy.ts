/**
 * The pages' door to local persistence: the calls of ./index.ts, with Dexie (about 30 KB of script)
 * loaded on first use instead of with the page. While the browser holds no Pixmill database yet (a
 * first visit), the reads answer "nothing stored" without loading it; the first write loads it and
 * creates the database. The worker imports ./index.ts directly.
 */
import type { Work } from '../shared/domain/work.js';
import type { CacheKey, OriginalRecord, UploadItemRecord } from './index.js';
import { DB_NAME } from './name.js';

let exists: boolean | undefined;

/**
 * Whether this origin already has the Pixmill database. `indexedDB.databases()` tells without opening
 * (opening would create it); where the browser cannot tell, the answer is yes and Dexie decides.
 */
export async function localDatabaseExists(): Promise<boolean> {
  if (exists) return true;
  if (typeof indexedDB === 'undefined') return false;
  if (typeof indexedDB.databases !== 'function') return true;
  const list = await indexedDB.databases().catch(() => undefined);
  if (!list) return true;
  exists = list.some((d) => d.name === DB_NAME);
  return exists;
}

function db() {
  return import('./index.js').then((m) => {
    exists = true;
    return m;
  });
}

export async function loadWorks(now: number = Date.now()): Promise<Work[]> {
  if (!(await localDatabaseExists())) return [];
  return (await db()).loadWorks(now);
}

/** An empty list with no database yet stores nothing (the works store saves after every load). */
export async function putWorks(works: Work[], now: number = Date.now()): Promise<void> {
  if (works.length === 0 && !(await localDatabaseExists())) return;
  return (await db()).putWorks(works, now);
}

export async function deleteWorks(cids: string[], now: number = Date.now()): Promise<void> {
  if (!(await localDatabaseExists())) return;
  return (await db()).deleteWorks(cids, now);
}

export async function getCached<T>(key: CacheKey, maxAgeMs: number, now: number = Date.now()): Promise<T | undefined> {
  if (!(await localDatabaseExists())) return undefined;
  return (await db()).getCached<T>(key, maxAgeMs, now);
}

/** An empty list with no database yet is not worth creating one: a missing cache reads the same. */
export async function setCached(key: CacheKey, value: unknown, now: number = Date.now()): Promise<void> {
  if (Array.isArray(value) && value.length === 0 && !(await localDatabaseExists())) return;
  return (await db()).setCached(key, value, now);
}

/** Uploads interrupted by a reload: none without a database. */
export async function resumableUploads(): Promise<UploadItemRecord[]> {
  if (!(await localDatabaseExists())) return [];
  return (await db()).resumableUploads();
}

/** Picked files whose preparation a reload cut off: none without a database. */
export async function pendingOriginals(): Promise<OriginalRecord[]> {
  if (!(await localDatabaseExists())) return [];
  return (await db()).pendingOriginals();
}
