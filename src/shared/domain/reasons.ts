/**
 * Stable refusal reason codes: every refusal answers `data.reason` (one of these) and, where one
 * field is to blame, `data.field`; the client translates the code (locales/<lng>/reasons.json, key =
 * the code), it never reads the English `msg` back. Numbers a reason names travel beside it in
 * `data` (e.g. `max`, `w`, `h`) and fill its `{{name}}` placeholders, in `msg` and in the translations.
 * The API's OpenAPI document lists these codes as the enum of `data.reason` (developers switch on the
 * code, never on the text). The spec's numeric `code` (§7) stays what it was: the reason is an addition.
 *
 * A new reason: add it to REASON (its English `msg`), to REASON_ANSWER when its envelope code or HTTP
 * status is not 10001 / 200 or it always blames one field, and to locales/{en,de,fr,ja}/reasons.json
 * (src/i18n/reasons.test.ts fails until all four have it).
 */
import { CODE } from './codes.js';
import { keyGuard } from './keys.js';
import type { RefusalData } from './refusal.js';

/** Every reason code with its English `msg` (the one place these sentences are written). */
export const REASON = {
  /** the result of this scale would be larger than the largest output side (data: w, h, max) */
  outputTooLarge: 'The result would be {{w}}×{{h}} px; at most {{max}} px a side can be made',
  /** the file has no bytes */
  emptyFile: 'The file is empty.',
  /** the image's pixel count is over the limit (data: w, h, mp) */
  imageTooLarge: 'Image too large',

  // The developer API's refusals (docs/api.md).
  /** a required request field is missing (data: field) */
  fieldRequired: '{{field}} is required',
  /** a request field fails its schema: type, range or choice (data: field; min, max or allowed where the schema says) */
  fieldInvalid: '{{field}} is invalid',
  /** a field the call does not take; calls that spend credits refuse extra fields (data: field) */
  fieldUnknown: '{{field}} is not a field of this call',
  /** no call has this path */
  routeNotFound: 'not found',
  /** the path exists, the method does not (the Allow header lists the methods) */
  methodNotAllowed: 'Method not allowed',
  /** no valid token, or a token this call does not take */
  unauthorized: 'verification failed',
  /** the call needs credentials and the request carries none (no API key, no token, no cookie) */
  missingCredentials: 'verification failed: no API key or token was sent',
  /** the API key (X-Api-Key, Bearer or api_token) is unknown, replaced or malformed, on a call that needs one */
  invalidApiKey: 'verification failed: the API key is not valid',
  /** too many calls: wait Retry-After seconds (data: max, the calls a window allows) */
  rateLimited: 'Too many requests, please retry later.',
  /** another reset of the same API token won the race; its token is the account's token now */
  apiTokenResetConflict: 'The API token was reset by another request at the same time',
  /** an Idempotency-Key this account already used to start another work (another upload or jconfig) */
  idempotencyKeyReused: 'This Idempotency-Key already started another work',
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

  // Malformed requests (server/http/requestErrors.ts): a client of ours never sends one.
  /** the URL does not parse or is too long */
  badUrl: 'Malformed URL',
  /** a request the server cannot read, without a more precise reason */
  badRequest: 'Bad request',
  /** a parameter holds a NUL character */
  nulByte: 'Malformed parameter: it contains a NUL character',
  /** the body is larger than the call takes */
  bodyTooLarge: 'Request body is too large',
  /** the body's length is not its Content-Length */
  badContentLength: 'Request body size does not match Content-Length',
  /** the body's content type is not one the call reads */
  unsupportedType: 'Unsupported content type',
  /** the JSON body does not parse */
  badJson: 'Malformed JSON body',
  /** a JSON body with nothing in it */
  emptyJson: 'Empty JSON body',
  /** the JSON body nests deeper than the server walks */
  jsonTooDeep: 'JSON nested too deeply',
  /** the call takes multipart/form-data only */
  multipartExpected: 'multipart/form-data expected',
  /** the multipart body names no boundary */
  noBoundary: 'Malformed multipart body: no boundary',
  /** the multipart body ends before its closing boundary */
  truncated: 'Malformed multipart body: it ends before its closing boundary',
  /** the multipart body does not parse */
  badMultipart: 'Malformed multipart body',
  /** a form field's name is forbidden (__proto__ and the like) */
  badFieldName: 'Forbidden form field name',
  /** a form field declared as JSON is not JSON */
  badJsonField: 'A form field declared as JSON is not valid JSON',
  /** the request did not arrive whole in time */
  requestTimeout: 'Request timeout',
  /** the request's headers are larger than the server reads */
  headersTooLarge: 'Request headers are too large',
  /** a state-changing call from another site (no Origin of ours) */
  crossSite: 'cross-site request refused',
  /** a form field is longer than the form takes */
  fieldTooLong: 'A form field is too long',
  /** more files than the call takes */
  tooManyFiles: 'Too many files uploaded at once',
  /** more form fields than the call takes */
  tooManyFields: 'Too many form fields',
  /** more multipart parts than the call takes */
  tooManyParts: 'Too many form parts',
  /** the database or the queue cannot be reached; retry after Retry-After seconds */
  serviceUnavailable: 'Service temporarily unavailable',

  // Uploads (the upload refusals of src/shared/domain/uploadRefusals.ts, with their spec texts).
  /** the file is neither JPG nor PNG */
  unsupportedImage: 'Only JPG、JPEG and PNG images are supported.',
  /** the image is damaged or cut off */
  damagedImage: 'The image is damaged or incomplete.',
  /** a slice of a sliced upload was refused: send the file again */
  sliceRefused: 'The upload was refused; please send the file again.',
  /** the upload was deleted by retention */
  uploadExpired: 'This image has expired and was deleted.',
  /** the upload's job name has characters a job name never has */
  badJob: 'job is invalid',
  /** blob_num and total_blob_num are not 1 ≤ blob_num ≤ total_blob_num */
  slicesNumbers: 'blob_num and total_blob_num must be integers with 1 ≤ blob_num ≤ total_blob_num',
  /** total_blob_num differs from the upload's first slice */
  sliceTotalMismatch: 'total_blob_num does not match this upload',
  /** a slice over the slice size (data: mb) */
  sliceTooLarge: 'A slice may be at most {{mb}} MB',
  /** a slice before the last one that is not exactly the slice size (data: mb) */
  sliceSize: 'Every slice but the last must be exactly {{mb}} MB',
  /** a slice after the first without the upload's uid */
  sliceNeedsUid: 'uid is required for every slice after the first',
  /** a slice with no bytes */
  sliceEmpty: 'The slice is empty.',
  /** more uploads a minute than the plan allows (data: max) */
  uploadRateLimited: 'Too many uploads: your plan allows {{max}} images a minute. Please wait a moment and try again.',
  /** a client address uploaded its hour's bytes without an account (data: mb, retry_after seconds) */
  guestBytesPerHour:
    'Your network has uploaded {{mb}} MB without an account this hour, the most it may. Sign in, or try again in {{retry_after}} seconds.',
  /** the plan's storage for uploads is full (data: limit, e.g. "1 GB") */
  storageFull:
    'Your storage is full: your plan keeps up to {{limit}} of uploads. Delete some uploads or wait until they expire.',
  /** the upload URL is not an http(s) address of an image */
  urlInvalid: 'Please enter a valid http or https image address.',
  /** the upload URL points into a private network */
  urlPrivate: 'This address cannot be fetched.',
  /** the upload URL's server did not give the image */
  urlFailed: 'The image could not be downloaded.',
  /** the upload URL's server took too long */
  urlTimeout: 'The image download timed out.',
  /** no such upload of the caller's */
  uploadNotFound: 'upload not found',

  // Starting a work (jconfig, src/shared/domain/modules.ts parseJobConfig) and saved workflows.
  /** jconfig is not JSON */
  jconfigNotJson: 'jconfig must be JSON',
  /** jconfig is JSON but not an object */
  jconfigNotObject: 'jconfig must be an object',
  /** jconfig is larger than the server reads (data: max, in KB) */
  jconfigTooLarge: 'jconfig may be at most {{max}} KB',
  /** jconfig nests deeper than the server walks (data: max) */
  jconfigTooDeep: 'jconfig may be nested at most {{max}} levels deep',
  /** jconfig's job is no feature, preset or workflow */
  unknownJob: 'unknown job',
  /** config.module differs from job */
  moduleMismatch: 'config.module must match job',
  /** a step's module_params is not an object (data: module) */
  paramsNotObject: 'module_params must be an object',
  /** a module_params key the module does not take (data: module, param) */
  paramUnknown: 'unknown param {{param}}',
  /** a module_params value out of its type, range or choices (data: module, param; min and max, or allowed) */
  paramInvalid: '{{module}}.{{param}} is invalid',
  /** the feature has no engine on this server (data: module) */
  moduleUnavailable: '{{module}} is not available on this server yet',
  /** a workflow with no steps, or a step without a known module */
  noValidWorkflow: 'There is no valid workflow',
  /** more steps than the plan allows (data: max) */
  tooManySteps: 'A workflow has at most {{max}} steps',
  /** enlarge or background removal before the last step (data: module) */
  lastStepOnly: '{{module}} must be the last step',
  /** PSD output below Pro */
  psdProOnly: 'Only Pro user is allowed to generate the PSD file',
  /** the best colorize mode below Pro */
  bestColorizeProOnly: 'Only Pro users can use the best colorize mode',
  /** an enlarge scale the plan does not have (data: scale) */
  scaleSubscribersOnly: 'This scale is only for subscribers',
  /** best enlarge quality below a subscription */
  bestEnlargeSubscribersOnly: 'Best quality is only for subscribers',
  /** the image has more megapixels than the plan processes (data: mp) */
  planMegapixels: 'The image is larger than {{mp}} MP, the limit of your plan',
  /** a side of the image is longer than the plan processes (data: max, in px) */
  planSide: 'The image is longer than {{max}} px on a side, the limit of your plan',
  /** as many works running as the plan runs at once (data: max) */
  batchLimit: 'At most {{max}} images can be processed at the same time',
  /** too many guest works running or waiting from one address (data: max) */
  guestWorksPerAddress:
    'Too many images are being processed from your network without an account (at most {{max}} at a time). Please wait until one is done.',
  /** a second work at once below a subscription */
  batchSubscribersOnly: 'Only paid users can process multiple images at the same time',
  /** the account has saved as many workflows as it may (data: max) */
  workflowLimit: 'At most {{max}} workflows can be saved; delete one to save another',
  /** a workflow name over its length (data: max, in characters) */
  workflowNameTooLong: 'The workflow name can be at most {{max}} characters',
  /** no such workflow of the caller's */
  workflowNotFound: 'workflow not found',

  // Works and downloads.
  /** no such work of the caller's */
  workNotFound: 'work not found',
  /** the work has no result (yet) */
  workNotFinished: 'the work is not finished',
  /** the work's result was deleted by retention (data: days) */
  workExpired: 'This result has expired: results are kept for {{days}} days.',
  /** the result's file is gone */
  resultNotFound: 'result not found',
  /** download_compress on a work that is not a compress work */
  notCompressWork: 'not a compress work',
  /** more works than one bulk download takes (data: max) */
  bulkTooMany: 'at most {{max}} works per bulk download',
  /** no such bulk download of the caller's, or it expired */
  downloadNotFound: 'download not found',
  /** a bulk download needs credits left and a plan that has not expired */
  notEnoughPoints: 'Not enough points',
  /** no such sample */
  sampleNotFound: 'sample not found',

  // Accounts and tokens. The account forms answer their field reasons with code 1 and every field's in
  // data.reasons (server/services/forms.ts); elsewhere they are parameter errors like any other.
  /** the email address or password is wrong (login) */
  loginFailed: 'The email address or password is incorrect.',
  /** the old password is wrong (change password) */
  wrongPassword: 'wrong password',
  /** too many failed logins for this email (data: retry_after, seconds; minutes) */
  loginLocked: 'Too many failed logins for this email address. Please try again in {{minutes}} min.',
  /** a form field is not a valid email address */
  emailInvalid: 'Please enter a valid email address.',
  /** register: the email address has an account */
  emailTaken: 'This email address is already registered.',
  /** the email address has no account */
  emailUnknown: 'This email address does not exist.',
  /** the password is not 8–48 characters with letters and numbers */
  passwordWeak: 'The password must be 8 to 48 characters and contain both letters and numbers.',
  /** the two passwords differ */
  passwordMismatch: 'The two passwords do not match.',
  /** the new password is the old one */
  passwordSame: 'The new password must differ from the old password.',
  /** a name over its length */
  nameTooLong: 'The name is too long.',
  /** no occupation chosen */
  occupationRequired: 'Please choose an occupation.',
  /** the occupation survey needs at least one option */
  surveyRequired: 'Please select at least 1 option',
  /** a profile update with no field to change */
  nothingToUpdate: 'nothing to update',
  /** a contact message over its length */
  messageTooLong: 'The message is too long',
  /** a signed link or form nonce that does not verify */
  validationInvalid: 'Validation is invalid',
  /** bind_token's token is a guest's, not a signed-in user's */
  notUserToken: 'token must belong to a logged-in user',
  /** unbind_token: the guest token is not bound to this user */
  guestNotBound: 'guest token is not bound to this user',
  /** no such guest token */
  guestTokenUnknown: 'unknown guest token',
  /** an API token is for Pro subscribers and API plan customers */
  apiPlanRequired: 'An API token is for Pro subscribers and API plan customers.',
  /** plans are for registered accounts */
  notRegistered: 'only registered accounts have plans',
  /** a renewal for an account without a paid plan */
  noPlanToRenew: 'the account has no paid plan to renew',

  // Promotions and payments.
  /** a share code of the wrong shape or unknown */
  shareCodeInvalid: 'This share code is not valid.',
  /** the caller's own share code */
  shareCodeOwn: 'You cannot use your own share code.',
  /** a share code was used for this promotion already */
  shareCodeUsed: 'A share code has already been used for this promotion.',
  /** this server sells nothing (no payment provider) */
  purchasingDisabled: 'Purchasing is not configured on this server.',
  /** the payment provider could not open a checkout */
  providerFailed: 'The payment provider could not open a checkout. Please try again later.',
  /** no such payment provider on this server */
  providerNotFound: 'unknown payment provider',
  /** no such product (data: field) */
  productUnknown: 'unknown product_id',
  /** no such API plan */
  apiPlanUnknown: 'api_plan: unknown API plan',
  /** a checkout's email that is not the signed-in account's */
  emailNotOwn: "email: not the signed-in account's address",
  /** no such checkout of the caller's */
  checkoutNotFound: 'checkout not found',
  /** the account has as many checkouts open as it may (data: max) */
  checkoutLimit: 'You have {{max}} checkouts open already; finish or cancel one first',
  /** the checkout is paid or cancelled already */
  checkoutClosed: 'This checkout is already closed.',
  /** a payment event the server does not take */
  paymentEventInvalid: 'unknown payment event',
  /** a payment event that names no checkout or account, or no checkout where one is needed */
  paymentEventIncomplete: 'the payment event names no checkout or account it applies to',

  /** the analytics report's data is not a JSON object, or too large */
  reportDataInvalid: 'data must be a JSON object of at most {{max}} characters',
} as const satisfies Record<string, string>;
export type Reason = keyof typeof REASON;

// Pure: a bundle that uses only reasonOf or the types (the browser client) leaves the English texts out.
export const isReason = /* @__PURE__ */ keyGuard(REASON);
/** Every reason code, in the catalogue's order (the document's enum). */
export const REASON_CODES = /* @__PURE__ */ Object.keys(REASON) as Reason[];

/** How a reason is answered when not as a parameter error (10001, HTTP 200), and the field it always blames. */
export interface ReasonAnswer {
  /** the envelope's code (spec §7); 10001 when not given */
  code?: number;
  /** the HTTP status; 200 when not given (the spec answers refusals with 200), a call site may choose another */
  http?: number;
  /** the request field at fault whenever this reason is given */
  field?: string;
}

const MALFORMED = { http: 400 } as const;
const TOO_LARGE = { http: 413 } as const;
const GONE = { http: 404 } as const;

/** The answers that differ from 10001 / HTTP 200, and the fields some reasons always blame. */
export const REASON_ANSWER: Readonly<Partial<Record<Reason, ReasonAnswer>>> = {
  routeNotFound: GONE,
  methodNotAllowed: { http: 405 },
  unauthorized: { code: CODE.VERIFICATION_FAILED, http: 401 },
  missingCredentials: { code: CODE.VERIFICATION_FAILED, http: 401 },
  invalidApiKey: { code: CODE.VERIFICATION_FAILED, http: 401 },
  rateLimited: { http: 429 },
  idempotencyKeyReused: { http: 422, field: 'Idempotency-Key' },
  guestBytesPerHour: { http: 429 },
  checkoutLimit: { http: 429 },
  guestWorksPerAddress: { http: 429 },
  insufficientCredits: { code: CODE.INSUFFICIENT_CREDITS },
  badUrl: MALFORMED,
  badRequest: MALFORMED,
  nulByte: MALFORMED,
  bodyTooLarge: TOO_LARGE,
  badContentLength: MALFORMED,
  unsupportedType: { http: 415 },
  badJson: MALFORMED,
  emptyJson: MALFORMED,
  jsonTooDeep: MALFORMED,
  noBoundary: MALFORMED,
  truncated: MALFORMED,
  badMultipart: MALFORMED,
  badFieldName: MALFORMED,
  badJsonField: MALFORMED,
  requestTimeout: { http: 408 },
  headersTooLarge: { http: 431 },
  crossSite: { http: 403 },
  fieldTooLong: TOO_LARGE,
  tooManyFiles: TOO_LARGE,
  tooManyFields: TOO_LARGE,
  tooManyParts: TOO_LARGE,
  serviceUnavailable: { code: 503, http: 503 },
  uploadExpired: { http: 410 },
  badJob: { field: 'job' },
  slicesNumbers: { field: 'blob_num' },
  sliceTotalMismatch: { field: 'total_blob_num' },
  sliceNeedsUid: { field: 'uid' },
  urlInvalid: { field: 'url' },
  urlPrivate: { field: 'url' },
  urlFailed: { field: 'url' },
  urlTimeout: { field: 'url' },
  uploadNotFound: GONE,
  jconfigNotJson: { field: 'jconfig' },
  jconfigNotObject: { field: 'jconfig' },
  jconfigTooLarge: { field: 'jconfig' },
  jconfigTooDeep: { field: 'jconfig' },
  unknownJob: { field: 'jconfig' },
  moduleMismatch: { field: 'jconfig' },
  workflowNameTooLong: { field: 'name' },
  workflowNotFound: GONE,
  workNotFound: GONE,
  workExpired: { http: 410 },
  resultNotFound: GONE,
  bulkTooMany: { field: 'trans_ids' },
  downloadNotFound: GONE,
  notEnoughPoints: { code: CODE.NOT_ENOUGH_POINTS },
  sampleNotFound: GONE,
  loginFailed: { code: CODE.WRONG_PASSWORD },
  wrongPassword: { code: CODE.WRONG_PASSWORD, field: 'old_password' },
  loginLocked: { code: CODE.COMMON_PARAMETER_ERROR, http: 429, field: 'email' },
  emailTaken: { field: 'email' },
  emailUnknown: { field: 'email' },
  passwordMismatch: { field: 'confirm_password' },
  passwordSame: { field: 'password' },
  occupationRequired: { field: 'occupation' },
  surveyRequired: { field: 'occupations' },
  validationInvalid: { code: CODE.VALIDATION_INVALID },
  notUserToken: { field: 'token' },
  guestNotBound: { field: 'guest_token_v2' },
  guestTokenUnknown: { field: 'guest_token_v2' },
  apiPlanRequired: { http: 403 },
  shareCodeInvalid: { field: 'code' },
  shareCodeOwn: { field: 'code' },
  shareCodeUsed: { field: 'code' },
  providerFailed: { http: 502 },
  providerNotFound: GONE,
  productUnknown: { field: 'product_id' },
  apiPlanUnknown: { field: 'api_plan' },
  emailNotOwn: { field: 'email' },
  checkoutNotFound: GONE,
  reportDataInvalid: { field: 'data' },
};

// The refusal's shape and reasonOf live in ./refusal.ts, without the English texts: the browser imports them from there.
export type { RefusalData } from './refusal.js';

/** The refusal's data: the reason, the field it always blames (unless one is given) and the values. */
export function refusalData(reason: Reason, values: Omit<RefusalData, 'reason'> = {}): RefusalData {
  const field = typeof values.field === 'string' ? values.field : REASON_ANSWER[reason]?.field;
  return { ...values, reason, ...(field === undefined ? {} : { field }) } as RefusalData;
}

/** Reasons whose `msg` says what the value may be, from `data.allowed` or `data.min` and `data.max`. */
const SAYS_ALLOWED: ReadonlySet<Reason> = new Set(['fieldInvalid', 'paramInvalid']);

/**
 * The English `msg` of a refusal: the reason's text with its `{{name}}` placeholders filled from `data`
 * (lists joined by ", "); an invalid value's text adds what the value may be ("… (one of 2, 4, 6, 8)").
 */
export function reasonMsg(data: RefusalData): string {
  const text = REASON[data.reason].replace(/{{\s*(\w+)\s*}}/g, (whole, name: string) => {
    const v = data[name];
    return Array.isArray(v) ? v.join(', ') : v === undefined || v === null ? whole : String(v);
  });
  if (!SAYS_ALLOWED.has(data.reason)) return text;
  const { allowed, min, max } = data;
  if (Array.isArray(allowed)) return `${text} (one of ${allowed.join(', ')})`;
  if (typeof min === 'number' && typeof max === 'number') return `${text} (from ${min} to ${max})`;
  return text;
}
