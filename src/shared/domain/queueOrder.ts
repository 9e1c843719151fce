/**
 * The order in which waiting works get a processing slot (issue 48), the one rule both queues follow
 * (the jobs table in embedded mode, BullMQ's priorities in scale-out):
 *  - by level: Pro before Basic before registered and pack accounts before guests;
 *  - within a level, accounts take turns: a work's turn is its place among its account's unfinished
 *    works when it was started (1 for the first), so one account's tenth work waits behind another
 *    account's first;
 *  - nobody starves: every QUEUE_AGING_MS a waiting work has waited lifts it one class, so a guest's
 *    work reaches the front after at most QUEUE_CLASSES × QUEUE_AGING_MS (about 16 minutes) however
 *    many paid works keep arriving;
 *  - within a class, the older work first.
 * A class is a small whole number, 0 the front: (top level − level) × QUEUE_TURNS + (turn − 1).
 */
import type { Level } from './plans.js';

/** Queue levels: higher goes first. Expired accounts are registered people; they wait with the free ones. */
const QUEUE_LEVEL: Readonly<Record<Level, number>> = { pro: 3, basic: 2, register: 1, expired: 1, guest: 0 };
const TOP_LEVEL = 3;

/** Turns told apart within a level (plans allow at most 10 unfinished works; a later turn counts as the last). */
export const QUEUE_TURNS = 16;

/** Classes from the front (0) to a guest's first work. */
export const QUEUE_CLASSES = TOP_LEVEL * QUEUE_TURNS;

/** How long a waiting work waits for each class it is lifted by (the default of the QUEUE_AGING_MS setting). */
export const QUEUE_AGING_MS = 20_000;

/**
 * Guest works (running + waiting) from one address at a time: a person has one work at a time (the
 * guest batch is 1); a household or office behind one address has a few; a script taking a new guest
 * token per work has no more.
 */
export const GUEST_WORKS_PER_ADDRESS = 4;

/** The class of a work started by an account of `level` as its `turn`-th unfinished work (1-based). */
export function queueClass(level: Level, turn: number): number {
  const t = Math.min(QUEUE_TURNS, Math.max(1, Math.floor(turn))) - 1;
  return (TOP_LEVEL - QUEUE_LEVEL[level]) * QUEUE_TURNS + t;
}

/** The class a work of class `cls` stands in after waiting `waitedMs`: one less per `agingMs`, never below 0. */
export function agedClass(cls: number, waitedMs: number, agingMs: number = QUEUE_AGING_MS): number {
  return Math.max(0, cls - Math.floor(Math.max(0, waitedMs) / agingMs));
}
