/**
 * Events: the site ajax credit notifications (credit-transform/-upload/-download), analytics reports
 * (spec §7 "report endpoint") and small product events (cart abandon). One row each in `events`.
 */
import { EventRepository } from '../repositories/eventRepository.js';
import type { ServiceBase } from './base.js';

/** Payloads are small JSON objects; anything bigger is refused rather than truncated. */
export const EVENT_PAYLOAD_MAX_CHARS = 4096;

/** Besides the retention sweep's timer, every this many inserts in one process prune too. */
export const EVENTS_PRUNE_EVERY = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface EventRow {
  id: number;
  account_id: number | null;
  kind: string;
  payload: Record<string, unknown>;
  created_at: number;
}

export class EventService {
  private readonly events: EventRepository;
  private inserts = 0;

  constructor(private readonly deps: ServiceBase) {
    this.events = new EventRepository(deps.db);
  }

  /** Deletes events past the retention (the table was never pruned); returns how many went. */
  async prune(now = Date.now()): Promise<number> {
    const before = now - this.deps.config.eventsRetentionDays * DAY_MS;
    let total = 0;
    for (let n = await this.events.pruneOlderThan(before); n > 0; n = await this.events.pruneOlderThan(before))
      total += n;
    return total;
  }

  /** Records one event; returns its id. Throws if the payload is too big to be an honest event. */
  async record(kind: string, accountId: number | null, payload: Record<string, unknown>): Promise<number> {
    const json = JSON.stringify(payload ?? {});
    if (json.length > EVENT_PAYLOAD_MAX_CHARS) throw new RangeError('event payload too large');
    const id = await this.events.insert(kind, accountId, json, Date.now());
    // One batch here (a request never waits for a long backlog); the sweep deletes the rest.
    if (++this.inserts % EVENTS_PRUNE_EVERY === 0)
      await this.events.pruneOlderThan(Date.now() - this.deps.config.eventsRetentionDays * DAY_MS);
    return id;
  }

  /** The latest events of an account (newest first), for tests and the admin side. */
  async recent(accountId: number | null, kind?: string, limit = 50): Promise<EventRow[]> {
    const rows = await this.events.recent(accountId, kind, limit);
    return rows.map((r) => ({
      id: r.id,
      account_id: r.account_id,
      kind: r.kind,
      payload: JSON.parse(r.payload_json) as Record<string, unknown>,
      created_at: r.created_at,
    }));
  }
}
