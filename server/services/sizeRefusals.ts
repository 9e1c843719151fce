/**
 * Refusals of an upload over its plan's limits, naming the limit (docs/api.md): the spec's code 10001
 * and texts ('Your file is too large', 'Image too large', spec §8), the reason and the limit in `data`
 * (`max` bytes; `mp` megapixels and `max_side` px), the upload's refusal code for the workspace, and an
 * HTTP status that says it: 413 for bytes, 422 for pixels. Whole, sliced and by-URL uploads share them.
 */
import { refused } from '../errors.js';

/** Bytes over the plan's file size (`bytes` when known: a sliced upload refuses before it has them all). */
export const fileTooLarge = (max: number, bytes?: number) =>
  refused({ reason: 'fileTooLarge', refusal: 'fileTooLarge', max, ...(bytes === undefined ? {} : { bytes }) }, 413);

/** Pixels or a side over the plan's resolution. */
export const imageTooLarge = (limits: { maxPixels: number; maxSide: number }) =>
  refused(
    { reason: 'imageTooLarge', refusal: 'imageTooLarge', mp: limits.maxPixels / 1_000_000, max_side: limits.maxSide },
    422,
  );
