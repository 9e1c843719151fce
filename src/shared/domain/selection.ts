/** Selection rules of the workspace (spec §2, §4): only ready works, never more than the plan's batch limit. */
import type { Level } from './plans.js';
import { limitsFor } from './plans.js';
import type { Work } from './work.js';

/** Only ready works can be selected, and never more than the plan's batch limit. */
export function canSelect(
  works: readonly Pick<Work, 'cid' | 'status' | 'selected'>[],
  cid: string,
  level: Level,
): boolean {
  const target = works.find((w) => w.cid === cid);
  if (!target || target.status !== 'ready') return false;
  if (target.selected) return true;
  return works.filter((w) => w.selected).length < limitsFor(level).batch;
}

/** Select-all: the first ready works up to the limit (those already selected stay). */
export function selectAllCids(works: readonly Pick<Work, 'cid' | 'status' | 'selected'>[], level: Level): string[] {
  const limit = limitsFor(level).batch;
  const chosen = works.filter((w) => w.selected && w.status === 'ready').map((w) => w.cid);
  for (const w of works) {
    if (chosen.length >= limit) break;
    if (w.status === 'ready' && !chosen.includes(w.cid)) chosen.push(w.cid);
  }
  return chosen;
}

/**
 * Select-all is checked when every visible work that can be selected (ready: spec §4) is selected
 * (spec §2 "checked when every visible item is selected"); reaching the plan's cap with more left
 * over is the mixed state, not checked.
 */
export function selectAllChecked(visible: readonly Pick<Work, 'status' | 'selected'>[], _level?: Level): boolean {
  const ready = visible.filter((w) => w.status === 'ready');
  return ready.length > 0 && ready.every((w) => w.selected);
}

/** Some but not all of the visible selectable works are selected (the checkbox shows mixed). */
export function selectAllMixed(visible: readonly Pick<Work, 'status' | 'selected'>[]): boolean {
  const ready = visible.filter((w) => w.status === 'ready');
  const n = ready.filter((w) => w.selected).length;
  return n > 0 && n < ready.length;
}
