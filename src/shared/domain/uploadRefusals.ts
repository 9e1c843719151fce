/**
 * Why the server refused an upload (spec §8 "Upload statuses" and §5), as a code. The server answers
 * code 10001 with the English text below as `msg` (the spec's envelope) and the code as
 * `data.refusal`; the client translates the code, it never reads the text back.
 */
import { CHUNK_SIZE_BYTES } from './constants.js';
import { keyGuard } from './keys.js';
import type { Reason } from './reasons.js';

const MB = 1024 * 1024;

/** Every reason the server refuses an upload, with its English `msg` (the one place these are written). */
export const UPLOAD_REFUSAL = {
  fileTooLarge: 'Your file is too large',
  imageTooLarge: 'Image too large',
  unsupported: 'Only JPG、JPEG and PNG images are supported.',
  empty: 'The file is empty.',
  corrupt: 'The image is damaged or incomplete.',
  tooManyRequests: 'Too many requests, please retry later.',
  sliceRefused: 'The upload was refused; please send the file again.',
  expired: 'This image has expired and was deleted.',
  // Refusals of a malformed request: the client never sends one, so they read as technical.
  fileRequired: 'file is required',
  badJob: 'job is invalid',
  slicesNumbers: 'blob_num and total_blob_num must be integers with 1 ≤ blob_num ≤ total_blob_num',
  sliceTotalMismatch: 'total_blob_num does not match this upload',
  sliceTooLarge: `A slice may be at most ${CHUNK_SIZE_BYTES / MB} MB`,
  sliceSize: `Every slice but the last must be exactly ${CHUNK_SIZE_BYTES / MB} MB`,
  sliceNeedsUid: 'uid is required for every slice after the first',
  sliceEmpty: 'The slice is empty.',
} as const satisfies Record<string, string>;
export type UploadRefusal = keyof typeof UPLOAD_REFUSAL;

export const isUploadRefusal = keyGuard(UPLOAD_REFUSAL);

/** The catalogue's reason (src/shared/domain/reasons.ts, the answer's `data.reason`) of each upload refusal. */
export const UPLOAD_REFUSAL_REASON: Readonly<Record<UploadRefusal, Reason>> = {
  fileTooLarge: 'fileTooLarge',
  imageTooLarge: 'imageTooLarge',
  unsupported: 'unsupportedImage',
  empty: 'emptyFile',
  corrupt: 'damagedImage',
  tooManyRequests: 'rateLimited',
  sliceRefused: 'sliceRefused',
  expired: 'uploadExpired',
  fileRequired: 'fieldRequired',
  badJob: 'badJob',
  slicesNumbers: 'slicesNumbers',
  sliceTotalMismatch: 'sliceTotalMismatch',
  sliceTooLarge: 'sliceTooLarge',
  sliceSize: 'sliceSize',
  sliceNeedsUid: 'sliceNeedsUid',
  sliceEmpty: 'sliceEmpty',
};

/** The envelope's `data` on an upload refusal. */
export interface UploadRefusalData {
  refusal: UploadRefusal;
}

/** The refusal code an answer carries in `data`, if any. */
export function refusalOf(data: unknown): UploadRefusal | undefined {
  const r = (data as { refusal?: unknown } | null | undefined)?.refusal;
  return isUploadRefusal(r) ? r : undefined;
}

/**
 * Refusals answered before any upload code runs (the body-size limit, the rate limiter) carry no
 * code in `data`; their HTTP status says which they are.
 */
const BY_STATUS: Readonly<Record<number, UploadRefusal>> = { 413: 'fileTooLarge', 429: 'tooManyRequests' };

/** i18n keys (namespace `upload`) a refusal is shown with; `refused` (no code known) carries the server's own text as {{reason}}. */
export type UploadRefusalKey =
  | 'upload:fileTooLarge'
  | 'upload:imageTooLarge'
  | 'upload:onlyJpgPng'
  | 'upload:emptyFile'
  | 'upload:damagedImage'
  | 'upload:tooManyRequests'
  | 'upload:sendAgain'
  | 'upload:expired'
  | 'upload:refused'
  | `upload:refusal.${'fileRequired' | 'badJob' | 'slicesNumbers' | 'sliceTotalMismatch' | 'sliceTooLarge' | 'sliceSize' | 'sliceNeedsUid' | 'sliceEmpty'}`;

export const UPLOAD_REFUSAL_KEY: Readonly<Record<UploadRefusal, UploadRefusalKey>> = {
  fileTooLarge: 'upload:fileTooLarge',
  imageTooLarge: 'upload:imageTooLarge',
  unsupported: 'upload:onlyJpgPng',
  empty: 'upload:emptyFile',
  corrupt: 'upload:damagedImage',
  tooManyRequests: 'upload:tooManyRequests',
  sliceRefused: 'upload:sendAgain',
  expired: 'upload:expired',
  fileRequired: 'upload:refusal.fileRequired',
  badJob: 'upload:refusal.badJob',
  slicesNumbers: 'upload:refusal.slicesNumbers',
  sliceTotalMismatch: 'upload:refusal.sliceTotalMismatch',
  sliceTooLarge: 'upload:refusal.sliceTooLarge',
  sliceSize: 'upload:refusal.sliceSize',
  sliceNeedsUid: 'upload:refusal.sliceNeedsUid',
  sliceEmpty: 'upload:refusal.sliceEmpty',
};

/** A refusal as the worker hands it over: the server's code, its text, the reason's code and the HTTP status. */
export interface UploadRefusalInfo {
  code: number;
  msg: string;
  reason?: UploadRefusal;
  status?: number;
}

/**
 * The key and values that show a server refusal: from its reason code (or, without one, its HTTP
 * status); a refusal with neither shows the generic `upload:refused` with the server's text as {{reason}}.
 */
export function uploadRefusalText(r: Pick<UploadRefusalInfo, 'msg' | 'reason' | 'status'>): {
  key: UploadRefusalKey;
  reason: string;
  mb: number;
} {
  const code = r.reason ?? (r.status === undefined ? undefined : BY_STATUS[r.status]);
  return { key: code ? UPLOAD_REFUSAL_KEY[code] : 'upload:refused', reason: r.msg.trim(), mb: CHUNK_SIZE_BYTES / MB };
}
