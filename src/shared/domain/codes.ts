/**
 * Response codes of spec §7–§8 and their catalogue texts (English; the client translates by code).
 * Two codes mean "parameter error": 1 is the account forms' family (spec "Common codes" 1–6,
 * field errors in data.errors), 10001 the processing API's. Nothing else may restate a number here.
 */
export const CODE = {
  OK: 200,
  /** spec "Common codes": 1 parameter error (account forms; field errors in data.errors) */
  COMMON_PARAMETER_ERROR: 1,
  USERNAME_NOT_EXIST: 2,
  WRONG_PASSWORD: 3,
  VALIDATION_INVALID: 5,
  VERIFICATION_FAILED: 6,
  /** processing/upload API: parameter error (also every refusal of an upload) */
  PARAM_ERROR: 10001,
  INSUFFICIENT_CREDITS: 10012,
  NOT_ENOUGH_POINTS: 30004,
} as const;

export const CODE_TEXT: Record<number, string> = {
  [CODE.OK]: 'ok',
  [CODE.COMMON_PARAMETER_ERROR]: 'parameter error',
  [CODE.USERNAME_NOT_EXIST]: 'The username does not exist',
  [CODE.WRONG_PASSWORD]: 'wrong password',
  [CODE.VALIDATION_INVALID]: 'Validation is invalid',
  [CODE.VERIFICATION_FAILED]: 'verification failed',
  [CODE.PARAM_ERROR]: 'parameter error',
  [CODE.INSUFFICIENT_CREDITS]: 'Insufficient Credits',
  [CODE.NOT_ENOUGH_POINTS]: 'Not enough points',
};

/** The answer of every API call: `{code, msg, data}` (spec §7). */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}
