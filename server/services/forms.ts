/**
 * The account forms' refusal (spec §8): code 1 with the first field's text; every field's text in
 * data.errors (the pages show it beside the field), the first field's reason in data.reason and
 * data.field, and every field's reason in data.reasons (src/shared/domain/reasons.ts).
 */
import { ACCOUNT_REASON, ACCOUNT_TEXT, type FieldErrors } from '../../src/shared/domain/account.js';
import { CODE } from '../../src/shared/domain/codes.js';
import type { Reason } from '../../src/shared/domain/reasons.js';
import { ApiError } from '../errors.js';

const REASON_OF_TEXT = new Map<string, Reason>(
  Object.entries(ACCOUNT_TEXT).map(([k, text]) => [text, ACCOUNT_REASON[k as keyof typeof ACCOUNT_TEXT]]),
);

/** The reason of a form rule's text (a text of another kind is the field's invalid value). */
const formReason = (text: string): Reason => REASON_OF_TEXT.get(text) ?? 'fieldInvalid';

export function formError(errors: FieldErrors): ApiError {
  const [field, first] = Object.entries(errors)[0] ?? ['', ACCOUNT_TEXT.required];
  const reasons = Object.fromEntries(Object.entries(errors).map(([f, text]) => [f, formReason(text)]));
  return new ApiError(CODE.COMMON_PARAMETER_ERROR, first, 200, {
    reason: formReason(first),
    ...(field ? { field } : {}),
    errors,
    reasons,
  });
}
