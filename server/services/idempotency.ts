/**
 * Idempotency-Key (issue 47): a request repeated with the key it was first sent with — a reloaded page,
 * a client's retry — names the same record, so it is answered the first's result instead of doing it twice.
 */
import { createHash } from 'node:crypto';
import { fieldRefusal } from './schemaCheck.js';

/** Idempotency-Key: printable ASCII, as Stripe's and IETF's drafts take it. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** Refuses a key that is not one (422 fieldInvalid, naming the header). */
export function checkIdempotencyKey(key: string): void {
  if (!IDEMPOTENCY_KEY.test(key))
    throw fieldRefusal('fieldInvalid', 'Idempotency-Key', 'at most 255 printable ASCII characters', { max: 255 });
}

/**
 * The id a key names for an account, in a UUID's shape from SHA-256: another account's same key names
 * another record. `kind` keeps a work's and an upload's ids apart for one key (a work: none, as before).
 */
export function idForKey(accountId: number, key: string, kind: 'work' | 'upload' = 'work'): string {
  const h = createHash('sha256')
    .update(kind === 'work' ? `${accountId}\n${key}` : `${accountId}\n${kind}\n${key}`)
    .digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
