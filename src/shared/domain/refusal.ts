/**
 * A refusal's `data` as the client reads it: the reason's code, the field to blame and the numbers it
 * names. Kept apart from the catalogue of reasons (./reasons.ts, with the English texts) so the browser
 * bundle carries neither the texts nor the list: the client knows a code by its translation
 * (locales/<lng>/reasons.json); the server makes its refusals from the catalogue.
 */
import type { Reason } from './reasons.js';

/** The envelope's `data` on a refusal: the reason's code, the field to blame and the numbers it names. */
export interface RefusalData {
  reason: Reason;
  field?: string;
  [k: string]: unknown;
}

/** The refusal an answer's `data` carries, if any (its shape only: a code this client has no text for is shown by its envelope code). */
export function reasonOf(data: unknown): RefusalData | undefined {
  const d = data as { reason?: unknown } | null | undefined;
  return d && typeof d.reason === 'string' && d.reason !== '' ? (d as RefusalData) : undefined;
}
