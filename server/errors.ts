/**
 * The typed error every server layer throws. Services throw it without knowing HTTP; the Fastify error
 * handler (server/app.ts) turns it into the response envelope {code, msg, data} of spec §7. Every
 * refusal is made from a reason of the catalogue (src/shared/domain/reasons.ts): its envelope code, HTTP
 * status and English msg come from there, and `data` carries `reason`, `field` and the values it names.
 */
import { CODE, CODE_TEXT } from '../src/shared/domain/codes.js';
import { CHUNK_SIZE_BYTES } from '../src/shared/domain/constants.js';
import { REASON_ANSWER, reasonMsg, refusalData, type Reason, type RefusalData } from '../src/shared/domain/reasons.js';
import {
  UPLOAD_REFUSAL,
  UPLOAD_REFUSAL_REASON,
  type UploadRefusal,
  type UploadRefusalData,
} from '../src/shared/domain/uploadRefusals.js';

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

/** The values a refusal names besides its reason: the field to blame and the numbers of its text. */
export type RefusalValues = Omit<RefusalData, 'reason'>;

/** A refusal with a stable reason code: data.reason, data.field and the numbers it names; code, HTTP status and msg from the catalogue. */
export const refused = (data: RefusalData, httpStatus?: number) => {
  const full = refusalData(data.reason, data);
  const answer = REASON_ANSWER[data.reason];
  return new ApiError(answer?.code ?? CODE.PARAM_ERROR, reasonMsg(full), httpStatus ?? answer?.http ?? 200, full);
};

/** A refusal by its reason (most are the spec's parameter error 10001); never a sentence: the catalogue holds the text. */
export const paramError = (reason: Reason, values: RefusalValues = {}) => refused({ ...values, reason });
/** Missing or foreign ids answer like a missing one: no hint that the id exists for someone else. */
export const notFound = (reason: Reason = 'routeNotFound', values: RefusalValues = {}) =>
  refused({ ...values, reason }, 404);
export const unauthorized = () => refused({ reason: 'unauthorized' });

/** An upload refused for a reason the client translates: the spec's English msg, the reason in data.reason and the upload's code as data.refusal. */
export const uploadRefused = (refusal: UploadRefusal, httpStatus = 200) => {
  const reason = UPLOAD_REFUSAL_REASON[refusal];
  const values =
    refusal === 'fileRequired'
      ? { field: 'file' }
      : refusal === 'sliceTooLarge' || refusal === 'sliceSize'
        ? { mb: CHUNK_SIZE_BYTES / (1024 * 1024) }
        : {};
  const data = { ...refusalData(reason, values), refusal } satisfies UploadRefusalData & RefusalData;
  return new ApiError(CODE.PARAM_ERROR, UPLOAD_REFUSAL[refusal], httpStatus, data);
};
