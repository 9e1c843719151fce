/**
 * Honest time (issue 51 point 4): how long a work takes, from the photo's megapixels, the feature, the
 * scale and this server's measured rate. A rate is seconds per input megapixel of one step, kept per
 * engine (module, and scale for enlarge: `rateKey`), learned from finished works as an exponential moving
 * average (`learnRate`) and seeded with the idle figures of server/engines/README.md (`SEED_S_PER_MP`).
 * One place for these numbers; the server learns and answers, the client shows.
 */

/** The rate key of one step: the module, and for enlarge its scale (each scale runs other passes). */
export function rateKey(module: string, params?: Record<string, unknown>): string {
  return module === 'enlarge' ? `enlarge:${Number(params?.scale ?? 2) || 2}` : module;
}

/**
 * Seconds per input MP on an idle 2-core machine (server/engines/README.md): enlarge x2 4 s and x4 5.5 s per
 * MP on the big nets (`npm run bench today` on the idle machine, 2026-11-29: 2.8 MP x2 11.0 s, x4 15.4 s),
 * x8 = x4 then x2 on 16× the pixels (1 MP x8 65 s), x6 the same and a resize; denoise 1.8 (2.8 MP in 5.8 s,
 * the same run; the 4 seeded before came from a loaded machine and was 2× off); the rest from the 2.8 MP
 * column (sharpen_auto 9.5, matting 1.8 + 9,
 * colorize 5.3, portrait 1.2, cartoonize 14, face_enhancer 19.6, perfect 28.6, repair 12.2, compress 0.09).
 */
export const SEED_S_PER_MP: Readonly<Record<string, number>> = {
  'enlarge:2': 4,
  'enlarge:4': 5.5,
  'enlarge:6': 70,
  'enlarge:8': 70,
  denoise: 1.8,
  sharpen: 0.15,
  sharpen_auto: 3.4,
  matting: 3.9,
  colorize: 1.9,
  colorize_pro: 2.4,
  portrait: 0.45,
  cartoonize: 5,
  face_enhancer: 7,
  perfect: 10,
  repair: 4.4,
  compress: 0.05,
};
/** A step whose module has no seed: a middling rate until the server has measured it. */
const UNKNOWN_S_PER_MP = 5;
/** Seconds every work takes beyond its steps (decode, encode, hand-offs), never learned away. */
export const WORK_OVERHEAD_S = 1;
/** The weight of the newest measurement in the moving average (about the last three works count): a seed off by 2× is within 50 % after one work. */
export const RATE_EMA_ALPHA = 0.5;
/** A measurement this far from the rate (a factor either way) moves it only to that factor: one stalled work cannot wreck it. */
const RATE_MAX_JUMP = 4;
/** Works smaller than this are not learned from: their time is the overhead, not the rate. */
const LEARN_MIN_MP = 0.05;

export type Rates = Readonly<Record<string, number>>;

const rateOf = (rates: Rates, key: string): number => rates[key] ?? SEED_S_PER_MP[key] ?? UNKNOWN_S_PER_MP;

/** The moving average after one finished work measured `observed` seconds per MP (clamped to RATE_MAX_JUMP). */
export function learnRate(old: number | undefined, observed: number): number {
  if (!(observed > 0) || !Number.isFinite(observed)) return old ?? observed;
  if (old === undefined) return observed;
  const clamped = Math.min(old * RATE_MAX_JUMP, Math.max(old / RATE_MAX_JUMP, observed));
  return old + RATE_EMA_ALPHA * (clamped - old);
}

export interface EstimateStep {
  module?: string;
  module_params?: Record<string, unknown>;
}

/** Seconds a work of these steps takes on a w×h photo (each step on the pixels the steps before it made). */
export function workSeconds(steps: readonly EstimateStep[], w: number, h: number, rates: Rates): number {
  let mp = (w * h) / 1e6;
  let s = WORK_OVERHEAD_S;
  for (const step of steps) {
    if (!step.module) continue;
    s += rateOf(rates, rateKey(step.module, step.module_params)) * mp;
    if (step.module === 'enlarge') mp *= (Number(step.module_params?.scale ?? 2) || 1) ** 2;
  }
  return s;
}

/** What one finished single-step work teaches: seconds per input MP of its step, beyond the overhead. */
export function observedRate(seconds: number, w: number, h: number): number | undefined {
  const mp = (w * h) / 1e6;
  if (mp < LEARN_MIN_MP) return undefined;
  return Math.max(0, seconds - WORK_OVERHEAD_S) / mp;
}

/** Seconds left of a running work that is `progress` % done. */
export const secondsLeft = (total: number, progress: number): number =>
  Math.max(1, Math.round(total * (1 - Math.min(100, Math.max(0, progress)) / 100)));

/**
 * Seconds until a waiting work is done: the works ahead of it in queue order (what is left of each) share
 * `slots` slots, then its own time.
 */
export function waitingSeconds(aheadLeft: readonly number[], own: number, slots: number): number {
  const ahead = aheadLeft.reduce((a, b) => a + b, 0);
  return Math.round(ahead / Math.max(1, slots) + own);
}

/** How the card says the time left: seconds up to 90, then whole minutes (rounded up). */
export function timeLeftText(seconds: number): { unit: 'seconds' | 'minutes'; count: number } {
  return seconds <= 90
    ? { unit: 'seconds', count: Math.max(1, Math.round(seconds)) }
    : { unit: 'minutes', count: Math.ceil(seconds / 60) };
}
