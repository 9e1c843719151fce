/** Levels, their limits (spec §6) and the level derivation of spec §4, in one place. */
import {
  LOW_CREDIT_WARNING,
  UPLOAD_QUEUE_MAX,
  PLAN_ID_BASIC,
  PLAN_ID_PRO,
  PLAN_ID_REGISTER,
  WORKFLOW_STEPS_DEFAULT,
  WORKFLOW_STEPS_PRO,
} from './constants.js';

export const LEVELS = ['guest', 'register', 'basic', 'pro', 'expired'] as const;
export type Level = (typeof LEVELS)[number];

export interface PlanLimits {
  /** images selectable / uploadable at once */
  batch: number;
  /** credits granted with the plan */
  credits: number;
  maxFileBytes: number;
  /**
   * longest side allowed in px: derived from maxMegapixels (sideCapFor), never set by hand, so it
   * never undercuts the megapixel limit of any picture up to 4:1 (README "Readings of the spec")
   */
  maxSidePx: number;
  /** the binding resolution limit (spec §6: 2.8 / 14 / 34 MP); what the zone, pricing and the server's refusals say */
  maxMegapixels: number;
  compressMaxBytes: number;
  compressCredits: number;
  workflowSteps: number;
  /** scales above 2x are for subscribers */
  scales: readonly number[];
  psd: boolean;
  bestColorize: boolean;
  /** enlarge quality 'best' (our net's self-ensemble, 8× the work) is for subscribers */
  bestEnlarge: boolean;
}

const MB = 1024 * 1024;

/**
 * The widest picture whose resolution is kept in full under the megapixel limit: 4:1 (wider than
 * any camera's panorama crop most people take; a 6:1 strip is fitted by its long side instead).
 */
export const SIDE_CAP_ASPECT = 4;

/**
 * The side cap that goes with a megapixel limit: the long side of a SIDE_CAP_ASPECT:1 picture of
 * exactly that many pixels (2.8 MP -> 3347 px, 14 MP -> 7484 px, 34 MP -> 11662 px). The spec's
 * 2000x2000 / 3000x3000 would shrink a 29 MP photo to 5 MP while the plan says 34 MP.
 */
export function sideCapFor(megapixels: number): number {
  return Math.ceil(Math.sqrt(megapixelsToPixels(megapixels) * SIDE_CAP_ASPECT));
}

const FREE_MP = 2.8;
const BASIC_MP = 14;
const PRO_MP = 34;

const FREE: PlanLimits = {
  batch: 1,
  credits: 3,
  maxFileBytes: 5 * MB,
  maxSidePx: sideCapFor(FREE_MP),
  maxMegapixels: FREE_MP,
  compressMaxBytes: 5 * MB,
  compressCredits: 5,
  workflowSteps: WORKFLOW_STEPS_DEFAULT,
  scales: [2],
  psd: false,
  bestColorize: false,
  bestEnlarge: false,
};

export const PLAN_LIMITS: Readonly<Record<Level, PlanLimits>> = {
  guest: FREE,
  register: { ...FREE, compressCredits: 100 },
  basic: {
    batch: 5,
    credits: 200,
    maxFileBytes: 10 * MB,
    maxSidePx: sideCapFor(BASIC_MP),
    maxMegapixels: BASIC_MP,
    compressMaxBytes: 50 * MB,
    compressCredits: 200,
    workflowSteps: WORKFLOW_STEPS_DEFAULT,
    scales: [2, 4, 6, 8],
    psd: false,
    bestColorize: false,
    bestEnlarge: true,
  },
  pro: {
    batch: 10,
    credits: 500,
    maxFileBytes: 10 * MB,
    maxSidePx: sideCapFor(PRO_MP),
    maxMegapixels: PRO_MP,
    compressMaxBytes: 50 * MB,
    compressCredits: 500,
    workflowSteps: WORKFLOW_STEPS_PRO,
    scales: [2, 4, 6, 8],
    psd: true,
    bestColorize: true,
    bestEnlarge: true,
  },
  // Expired users get guest-like limits (spec §4, §6).
  expired: FREE,
};

/**
 * Upload quotas per level (our numbers; the spec has none): uploads a minute per account (a sliced
 * upload counts once) and bytes of uploads kept at a time (originals as received, until deleted or
 * expired; results are not counted). A guest selects one image at a time, so 20 a minute is ample
 * for a person and stops a script; subscribers upload batches of 5/10.
 */
export interface UploadQuota {
  uploadsPerMinute: number;
  storedBytes: number;
}

const GB = 1024 * MB;
const FREE_QUOTA: UploadQuota = { uploadsPerMinute: 20, storedBytes: 200 * MB };

export const UPLOAD_QUOTAS: Readonly<Record<Level, UploadQuota>> = {
  guest: FREE_QUOTA,
  register: { uploadsPerMinute: 30, storedBytes: 500 * MB },
  basic: { uploadsPerMinute: 60, storedBytes: 5 * GB },
  pro: { uploadsPerMinute: 120, storedBytes: 10 * GB },
  expired: FREE_QUOTA,
};

/** Retention classes: how long results, sources and thumbnails are kept (days configurable, see server config). */
export type RetentionClass = 'guest' | 'free' | 'subscriber';
export const RETENTION_DAYS_DEFAULT: Readonly<Record<RetentionClass, number>> = { guest: 7, free: 14, subscriber: 30 };

export function retentionClassOf(level: Level): RetentionClass {
  return level === 'guest' ? 'guest' : isSubscriber(level) ? 'subscriber' : 'free';
}

export function limitsFor(level: Level): PlanLimits {
  return PLAN_LIMITS[level];
}

/** A resolution limit in pixels: the spec's megapixels are decimal (2.8 MP = 2,800,000 px). */
export function megapixelsToPixels(megapixels: number): number {
  return Math.floor(megapixels * 1_000_000);
}

export interface LicenseFacts {
  logged: boolean;
  isExpired: boolean;
  pid: number;
}

/** Spec §4 "User level derivation". */
export function deriveLevel({ logged, isExpired, pid }: LicenseFacts): Level {
  if (!logged) return 'guest';
  if (isExpired) return 'expired';
  if (pid === PLAN_ID_REGISTER) return 'register';
  if (pid === PLAN_ID_BASIC) return 'basic';
  if (pid === PLAN_ID_PRO) return 'pro';
  return 'expired';
}

/** Spec §4: credits left = max_num - used_num, floored at 0. */
export function creditsLeft(maxNum: number, usedNum: number): number {
  return Math.max(0, maxNum - usedNum);
}

/**
 * Where an account stands with its credits, the one rule behind every credit note (workspace panel,
 * account page, the license answer's low_credit_warning):
 * - `empty`: nothing left;
 * - `fresh`: nothing spent yet — an untouched allowance (a new account's 3) is a welcome, never a warning,
 *   even though it is below the spec's threshold;
 * - `low`: some spent and at most LOW_CREDIT_WARNING (spec §9: 4) left;
 * - `ok`: anything else.
 */
export type CreditStanding = 'empty' | 'fresh' | 'low' | 'ok';

export function creditStanding(maxNum: number, usedNum: number): CreditStanding {
  const left = creditsLeft(maxNum, usedNum);
  if (left === 0) return 'empty';
  if (usedNum <= 0) return 'fresh';
  return left <= LOW_CREDIT_WARNING ? 'low' : 'ok';
}

/** The low-credit warning is shown for `empty` and `low` only. */
export function warnsLowCredits(standing: CreditStanding): boolean {
  return standing === 'empty' || standing === 'low';
}

export function isSubscriber(level: Level): boolean {
  return level === 'basic' || level === 'pro';
}

export function planIdFor(level: 'register' | 'basic' | 'pro'): number {
  return level === 'basic' ? PLAN_ID_BASIC : level === 'pro' ? PLAN_ID_PRO : PLAN_ID_REGISTER;
}

/** A checkout as the payments API answers it (server view, client page). */
export interface CheckoutView {
  checkout_id: string;
  provider: string;
  product_id: number;
  level: string;
  amount: number;
  currency: string;
  status: string;
  url: string;
}

/**
 * The size an upload ends at under a plan (non-compress): shrunk proportionally until it is within
 * both the megapixel limit and the longest-side limit (spec §5, §6); the same size when it fits.
 */
export function fitToLimits(
  w: number,
  h: number,
  limits: Pick<PlanLimits, 'maxMegapixels' | 'maxSidePx'>,
): { w: number; h: number; resized: boolean } {
  if (w <= 0 || h <= 0) return { w, h, resized: false };
  const byArea = Math.sqrt(megapixelsToPixels(limits.maxMegapixels) / (w * h));
  const bySide = limits.maxSidePx / Math.max(w, h);
  const k = Math.min(1, byArea, bySide);
  if (k >= 1) return { w, h, resized: false };
  let tw = Math.max(1, Math.floor(w * k));
  let th = Math.max(1, Math.floor(h * k));
  // floor() already keeps both limits; this guards float edge cases.
  while (tw * th > megapixelsToPixels(limits.maxMegapixels)) {
    if (tw >= th) tw--;
    else th--;
  }
  return { w: tw, h: th, resized: true };
}

/** Uploads in flight at once: spec §5's 5, or the plan's batch when larger (Pro's 10 at once all go in, spec §6). */
export function uploadQueueMax(level: Level): number {
  return Math.max(UPLOAD_QUEUE_MAX, PLAN_LIMITS[level].batch);
}

/**
 * What a plan can still gain by moving up (no upsell to people who already have it):
 * 'none' for Pro; 'pro' for Basic (Pro's batch, megapixels, PSD, best colorize); 'paid' for the free levels.
 */
export function upsellFor(level: Level): 'none' | 'pro' | 'paid' {
  return level === 'pro' ? 'none' : level === 'basic' ? 'pro' : 'paid';
}

/** The largest resolution any plan accepts (the upgrade offer names it). */
export function largestMegapixels(): number {
  return Math.max(...LEVELS.map((l) => PLAN_LIMITS[l].maxMegapixels));
}
