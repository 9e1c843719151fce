/**
 * The typed error every server layer throws. Services throw it without knowing HTTP; the Fastify error
 * handler (server/app.ts) turns it into the response envelope {code, msg, data} of spec §7.
 */
import { CODE, CODE_TEXT } from '../src/shared/domain/codes.js';
import { UPLOAD_REFUSAL, type UploadRefusal, type UploadRefusalData } from '../src/shared/domain/uploadRefusals.js';

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string = CODE_TEXT[code] ?? 'Something went wrong, please try again.',
    /** HTTP status; the spec answers 200 with an error code in the body, except for real HTTP faults */
    readonly httpStatus = 200,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

export const paramError = (msg = CODE_TEXT[CODE.PARAM_ERROR]) => new ApiError(CODE.PARAM_ERROR, msg);
/** Missing or foreign ids answer like a missing one: no hint that the id exists for someone else. */
export const notFound = (what = 'not found') => new ApiError(CODE.PARAM_ERROR, what, 404);
export const unauthorized = (msg = 'verification failed') => new ApiError(CODE.VERIFICATION_FAILED, msg, 401);

/** An upload refused for a reason the client translates: the spec's English msg, the reason's code as data.refusal. */
export const uploadRefused = (reason: UploadRefusal, httpStatus = 200) =>
  new ApiError(CODE.PARAM_ERROR, UPLOAD_REFUSAL[reason], httpStatus, { refusal: reason } satisfies UploadRefusalData);
