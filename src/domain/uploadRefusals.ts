/**
 * Why the server refused an upload, from its answer to the dialog: the server answers code 10001
 * with one of these texts (spec §8 "Upload statuses" and §5), the client shows the matching
 * translation. A text not in the table still reaches the user, inside a generic sentence.
 */

/** Every text the server sends when it refuses an upload (server/services/uploads.ts, imageRepository, app.ts). */
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
  sliceTooLarge: 'A slice may be at most 5 MB',
  sliceNeedsUid: 'uid is required for every slice after the first',
  sliceEmpty: 'The slice is empty.',
} as const;
export type UploadRefusal = keyof typeof UPLOAD_REFUSAL;

/** i18n keys (namespace `upload`) a refusal is shown with; `refused` carries the server's own text as {{reason}}. */
export type UploadRefusalKey =
  | 'upload:fileTooLarge'
  | 'upload:imageTooLarge'
  | 'upload:onlyJpgPng'
  | 'upload:emptyFile'
  | 'upload:damagedImage'
  | 'upload:tooManyRequests'
  | 'upload:sendAgain'
  | 'upload:expired'
  | 'upload:refused';

export const UPLOAD_REFUSAL_KEY: Readonly<Record<UploadRefusal, UploadRefusalKey>> = {
  fileTooLarge: 'upload:fileTooLarge',
  imageTooLarge: 'upload:imageTooLarge',
  unsupported: 'upload:onlyJpgPng',
  empty: 'upload:emptyFile',
  corrupt: 'upload:damagedImage',
  tooManyRequests: 'upload:tooManyRequests',
  sliceRefused: 'upload:sendAgain',
  expired: 'upload:expired',
  fileRequired: 'upload:refused',
  badJob: 'upload:refused',
  slicesNumbers: 'upload:refused',
  sliceTotalMismatch: 'upload:refused',
  sliceTooLarge: 'upload:refused',
  sliceNeedsUid: 'upload:refused',
  sliceEmpty: 'upload:refused',
};

const BY_TEXT = new Map<string, UploadRefusalKey>(Object.entries(UPLOAD_REFUSAL).map(([name, text]) => [text, UPLOAD_REFUSAL_KEY[name as UploadRefusal]]));

/** The key and interpolation values that show a server refusal; unknown texts fall back to `upload:refused`. */
export function uploadRefusalText(serverMsg: string | undefined): { key: UploadRefusalKey; reason: string } {
  const reason = (serverMsg ?? '').trim();
  return { key: BY_TEXT.get(reason) ?? 'upload:refused', reason };
}
