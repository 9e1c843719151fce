/**
 * Events: the site ajax credit notifications (credit-transform/-upload/-download), analytics reports
 * (spec §7 "report endpoint") and small product events (cart abandon). One row each in `events`.
 */
import { EventRepository } from '../repositories/eventRepository.js';
import type { Deps } from './index.js';

/** Analytics events of spec §7; `first_image_process` is the spec's "first-image process". */
export const REPORT_EVENTS = ['preview', 'preview_drag', 'download_all', 'add_credits_popup', 'add_image', 'first_image_process'] as const;
export type ReportEvent = (typeof REPORT_EVENTS)[number];

export const SITE_EVENTS = ['credit-transform', 'credit-upload', 'credit-download', 'cart-abandon'] as const;

/** Payloads are small JSON objects; anything bigger is refused rather than truncated. */
export const EVENT_PAYLOAD_MAX_CHARS = 4096;

export interface EventRow {
  id: number;
  account_id: number | null;
  kind: string;
  payload: Record<string, unknown>;
  created_at: number;
}

export class EventService {
  private readonly events: EventRepository;

  constructor(deps: Deps) {
    this.events = new EventRepository(deps.db);
  }

  isReportEvent(v: unknown): v is ReportEvent {
    return typeof v === 'string' && (REPORT_EVENTS as readonly string[]).includes(v);
  }

  /** Records one event; returns its id. Throws if the payload is too big to be an honest event. */
  async record(kind: string, accountId: number | null, payload: Record<string, unknown>): Promise<number> {
    const json = JSON.stringify(payload ?? {});
    if (json.length > EVENT_PAYLOAD_MAX_CHARS) throw new RangeError('event payload too large');
    return this.events.insert(kind, accountId, json, Date.now());
  }

  /** The latest events of an account (newest first), for tests and the admin side. */
  async recent(accountId: number | null, kind?: string, limit = 50): Promise<EventRow[]> {
    const rows = await this.events.recent(accountId, kind, limit);
    return rows.map((r) => ({ id: r.id, account_id: r.account_id, kind: r.kind, payload: JSON.parse(r.payload_json) as Record<string, unknown>, created_at: r.created_at }));
  }
}
