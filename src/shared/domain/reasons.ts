/**
 * Stable refusal reason codes: every refusal answers `data.reason` (one of these) and, where one
 * field is to blame, `data.field`; the client translates the code (locales, namespace `errors`,
 * key `reason.<code>`), it never reads the English `msg` back. Numbers a reason names travel beside
 * it in `data` (e.g. `max`, `w`, `h`).
 */
import { keyGuard } from './keys.js';

/** Every reason code with its English `msg` (the one place these sentences are written). */
export const REASON = {
  /** the result of this scale would be larger than the largest output side (data: w, h, max) */
  outputTooLarge: 'The result would be larger than the largest output we can make',
  /** the file has no bytes */
  emptyFile: 'The file is empty.',
  /** the image's pixel count is over the limit (data: w, h, mp) */
  imageTooLarge: 'Image too large',
} as const satisfies Record<string, string>;
export type Reason = keyof typeof REASON;

export const isReason = keyGuard(REASON);

/** The envelope's `data` on a refusal: the reason's code, the field to blame and the numbers it names. */
export interface RefusalData {
  reason: Reason;
  field?: string;
  [k: string]: unknown;
}

/** The reason an answer's `data` carries, if any. */
export function reasonOf(data: unknown): RefusalData | undefined {
  const d = data as { reason?: unknown } | null | undefined;
  return d && isReason(d.reason) ? (d as RefusalData) : undefined;
}
