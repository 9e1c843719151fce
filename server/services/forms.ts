/** The account forms' refusal (spec §8): code 1 with the first field's text; every field's text in data.errors. */
import { ACCOUNT_TEXT, type FieldErrors } from '../../src/shared/domain/account.js';
import { CODE } from '../../src/shared/domain/codes.js';
import { ApiError } from '../errors.js';

export function formError(errors: FieldErrors): ApiError {
  const first = Object.values(errors)[0] ?? ACCOUNT_TEXT.required;
  return new ApiError(CODE.COMMON_PARAMETER_ERROR, first, 200, { errors });
}
