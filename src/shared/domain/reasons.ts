/**
 * Refusal reasons: the stable code a refusal carries as `data.reason` (with `data.field` where one
 * request field is at fault), beside the spec's numeric `code` (10001, 10012, 6, …) and its English
 * `msg`. A developer switches on the reason, never on the text; the client translates it. The API's
 * OpenAPI document lists these codes as the enum of `data.reason`.
 *
 * Catalogue started by the developer API (issue 41) with the reasons its calls need; its owner
 * (issue 42 item 3: a reason on every paramError, each with en/de/fr/ja texts) extends it. A reason is
 * added here and nowhere else; values are the English description the document shows.
 */
import { keyGuard } from './keys.js';

export const REASONS = {
  // the request's shape
  field_required: 'a required field is missing (data.field names it)',
  field_invalid: 'a field fails its schema: wrong type, range or choice (data.field names it)',
  field_unknown: 'a field this call does not take (data.field names it): calls that spend credits refuse extra fields',
  route_not_found: 'no call has this path',
  method_not_allowed: 'the path exists, the method does not (the Allow header lists the methods)',
  // who calls
  unauthorized: 'no valid token, or a token this call does not take',
  rate_limited: 'too many calls: wait for Retry-After seconds',
  api_token_reset_conflict: 'another reset of the same API token ran at the same time; its token is the new one',
  // sizes and plan limits (data.limit names the limit)
  file_too_large: 'the file is larger than the plan allows (data.limit.max_bytes)',
  image_too_large: 'the image has more pixels than the plan allows (data.limit.max_megapixels)',
  image_too_long: 'a side of the image is longer than the plan allows (data.limit.max_side_px)',
  // credits and works
  insufficient_credits: 'no credits left',
  process_failed: 'the work failed; its credit was refunded',
  process_timeout: 'the work ran past its time limit; its credit was refunded',
  still_processing: 'the work is still running when the call stops waiting: poll it with its trans_id',
} as const satisfies Record<string, string>;

export type Reason = keyof typeof REASONS;
export const isReason = keyGuard(REASONS);
export const REASON_CODES = Object.keys(REASONS) as Reason[];

/** What a refusal's `data` carries besides other fields of its own. */
export interface ReasonData {
  reason: Reason;
  field?: string;
  limit?: Record<string, number>;
}
