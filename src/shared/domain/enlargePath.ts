/**
 * Which path a work's enlargement took (issue 51: never a silent downgrade). The engine reports it with
 * its result (server/engines/enlarge.ts `pathOf`), the job keeps it with the result, the API answers it;
 * "Done" alone only when the chosen nets ran on every tile.
 *  - `net`: every pass on the chosen nets;
 *  - `fast_net`: a pass ran on the fast net (pixmill-sr-x2-small-v2) to fit the job limit;
 *  - `resized`: a pass that no net could fit in the job limit was resized without AI (the papers' bicubic).
 */
export const ENLARGE_PATHS = ['net', 'fast_net', 'resized'] as const;
export type EnlargePath = (typeof ENLARGE_PATHS)[number];

export const isEnlargePath = (v: unknown): v is EnlargePath => ENLARGE_PATHS.includes(v as EnlargePath);
