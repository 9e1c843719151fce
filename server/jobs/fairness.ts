/**
 * Where a new work stands in the queue and whether its address may start one more (issue 48; the rule
 * itself is src/shared/domain/queueOrder.ts). Called by JobService.transform inside the transaction
 * that charges and stores the work, so the counts below see the works stored before it.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { queueClass } from '../../src/shared/domain/queueOrder.js';
import type { Level } from '../../src/shared/domain/plans.js';
import { refused } from '../errors.js';
import { currentAddressGroup } from '../clientAddress.js';
import { countAddressActive } from '../repositories/jobRepository.js';
import type { Database, Job } from '../repositories/schema.js';

export type QueueStanding = Pick<Job, 'queue_class' | 'client_key'>;

/**
 * The standing of a work started by an account of `level` that has `active` unfinished works already.
 * A guest's work also carries the address group of the request (clientAddress.ts) and is refused with
 * 429 `guestWorksPerAddress` when that group has `perAddress` guest works running or waiting. On
 * PostgreSQL the count is taken under a transaction lock on the group, so parallel starts from many
 * guest tokens of one address cannot all pass it at once (SQLite runs one write transaction at a time).
 */
export async function queueStanding(
  trx: Kysely<Database>,
  level: Level,
  active: number,
  perAddress: number,
): Promise<QueueStanding> {
  const queue_class = queueClass(level, active + 1);
  const clientKey = level === 'guest' ? currentAddressGroup() : undefined;
  if (!clientKey) return { queue_class, client_key: null };
  if (trx.getExecutor().adapter instanceof PostgresAdapter)
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`pixmill-guest-works:${clientKey}`}))`.execute(trx);
  if ((await countAddressActive(trx, clientKey)) >= perAddress)
    throw refused({ reason: 'guestWorksPerAddress', max: perAddress });
  return { queue_class, client_key: clientKey };
}
