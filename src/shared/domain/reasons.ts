/**
 * Stable refusal reason codes: every refusal answers `data.reason` (one of these) and, where one
 * field is to blame, `data.field`; the client translates the code (locales, namespace `errors`,
 * key `reason.<code>`), it never reads the English `msg` back. Numbers a reason names travel beside
 * it in `data` (e.g. `max`, `w`, `h`). The API's OpenAPI document lists these codes as the enum of
 * `data.reason` (developers switch on the code, never on the text).
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

  // The developer API's refusals (docs/api.md).
  /** a required request field is missing (data: field) */
  fieldRequired: 'A required field is missing',
  /** a request field fails its schema: type, range or choice (data: field) */
  fieldInvalid: 'A field has a value this call does not take',
  /** a field the call does not take; calls that spend credits refuse extra fields (data: field) */
  fieldUnknown: 'A field this call does not take',
  /** no call has this path */
  routeNotFound: 'not found',
  /** the path exists, the method does not (the Allow header lists the methods) */
  methodNotAllowed: 'Method not allowed',
  /** no valid token, or a token this call does not take */
  unauthorized: 'verification failed',
  /** too many calls: wait Retry-After seconds (data: max, the calls a window allows) */
  rateLimited: 'Too many requests, please retry later.',
  /** another reset of the same API token won the race; its token is the account's token now */
  apiTokenResetConflict: 'The API token was reset by another request at the same time',
  /** the file is larger than the caller's plan takes (data: bytes, max, in bytes) */
  fileTooLarge: 'Your file is too large',
  /** a side of the image is longer than the caller's plan takes (data: w, h, max, in px) */
  imageTooLong: 'Image too large',
  /** no credits left */
  insufficientCredits: 'Insufficient Credits',
  /** the work failed; its credit was refunded */
  processFailed: 'Process failed',
  /** the work ran past its time limit; its credit was refunded */
  processTimeout: 'The work ran past its time limit',
  /** the call stopped waiting while the work still runs: poll it by its trans_id (data: trans_id) */
  stillProcessing: 'The work is still running; poll its progress',
} as const satisfies Record<string, string>;
export type Reason = keyof typeof REASON;

export const isReason = keyGuard(REASON);
/** Every reason code, in the catalogue's order (the document's enum). */
export const REASON_CODES = Object.keys(REASON) as Reason[];

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
