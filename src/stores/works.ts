/** The works store: every Work of spec §3, tabs, view mode and selection; persisted through src/db. */
import { create } from 'zustand';
import { deleteWorks, loadWorks, putWorks } from '../db/lazy.js';
import { limitsFor, type Level } from '../shared/domain/plans.js';
import { canSelect, selectAllChecked, selectAllCids } from '../shared/domain/selection.js';
import { worksInTab, type WorksTab } from '../shared/domain/tabs.js';
import type { Work } from '../shared/domain/work.js';
import { COOKIE, getCookie, setCookie } from '../lib/cookies.js';

export type ViewMode = 'grid' | 'list';
const SUCCESS_COUNTER_KEY = 'pixmill.successCount';
const VIEW_MODE_DAYS = 365;

export interface WorksState {
  loaded: boolean;
  works: Work[];
  /** 0..100 per cid while uploading or processing (not persisted) */
  progress: Record<string, number>;
  /** seconds left per cid while the server runs it (its progress answer's seconds_left; not persisted) */
  timeLeft: Record<string, number>;
  tab: WorksTab;
  viewMode: ViewMode;
  /** finished since the Processed tab was last opened (badge) */
  successCount: number;
  load(): Promise<void>;
  setTab(tab: WorksTab): void;
  setViewMode(mode: ViewMode): void;
  add(works: Work[]): void;
  update(cid: string, patch: Partial<Work>): void;
  setProgress(cid: string, value: number): void;
  setTimeLeft(cid: string, seconds: number): void;
  toggleSelect(cid: string, level: Level): boolean;
  selectAll(tab: WorksTab, level: Level): void;
  clearSelection(predicate?: (w: Work) => boolean): void;
  remove(cids: string[]): void;
  bumpSuccess(): void;
}

const readViewMode = (): ViewMode => (getCookie(COOKIE.activeMode) === 'list' ? 'list' : 'grid');
const readSuccess = (): number => Number(localStorage.getItem(SUCCESS_COUNTER_KEY) ?? 0) || 0;

export const useWorks = create<WorksState>((set, get) => ({
  loaded: false,
  works: [],
  progress: {},
  timeLeft: {},
  tab: 'uploaded',
  viewMode: typeof document === 'undefined' ? 'grid' : readViewMode(),
  successCount: typeof localStorage === 'undefined' ? 0 : readSuccess(),

  async load() {
    let stored: Work[] = [];
    try {
      stored = await loadWorks(Date.now());
    } catch (e) {
      console.warn('local works unavailable', e);
    }
    // Works added while loading (e.g. a quick drop) stay in front of the stored ones.
    set((s) => ({ works: [...s.works, ...stored.filter((w) => !s.works.some((x) => x.cid === w.cid))], loaded: true }));
  },

  setTab(tab) {
    // Spec §2: switching to Processed resets the stored success counter.
    if (tab === 'processed') {
      localStorage.setItem(SUCCESS_COUNTER_KEY, '0');
      set({ tab, successCount: 0 });
    } else set({ tab });
  },

  setViewMode(mode) {
    setCookie(COOKIE.activeMode, mode, VIEW_MODE_DAYS);
    set({ viewMode: mode });
  },

  add(works) {
    set((s) => ({ works: [...works, ...s.works.filter((w) => !works.some((n) => n.cid === w.cid))] }));
  },

  update(cid, patch) {
    set((s) => ({ works: s.works.map((w) => (w.cid === cid ? { ...w, ...patch, updatedAt: Date.now() } : w)) }));
  },

  setProgress(cid, value) {
    set((s) => ({ progress: { ...s.progress, [cid]: value } }));
  },

  setTimeLeft(cid, seconds) {
    set((s) => ({ timeLeft: { ...s.timeLeft, [cid]: seconds } }));
  },

  toggleSelect(cid, level) {
    const { works } = get();
    const w = works.find((x) => x.cid === cid);
    if (!w) return false;
    if (!w.selected && !canSelect(works, cid, level)) return false;
    get().update(cid, { selected: !w.selected });
    return true;
  },

  selectAll(tab, level) {
    const visible = worksInTab(get().works, tab);
    // Checked, or at the plan's cap with nothing more to add: the click clears the selection.
    const atCap = get().works.filter((w) => w.selected).length >= limitsFor(level).batch;
    if (selectAllChecked(visible) || atCap) {
      set((s) => ({ works: s.works.map((w) => (visible.includes(w) ? { ...w, selected: false } : w)) }));
      return;
    }
    const chosen = new Set(
      selectAllCids(
        get().works.filter((w) => visible.includes(w) || w.selected),
        level,
      ),
    );
    set((s) => ({ works: s.works.map((w) => ({ ...w, selected: chosen.has(w.cid) })) }));
  },

  clearSelection(predicate) {
    set((s) => ({
      works: s.works.map((w) => (w.selected && (!predicate || predicate(w)) ? { ...w, selected: false } : w)),
    }));
  },

  remove(cids) {
    set((s) => ({ works: s.works.filter((w) => !cids.includes(w.cid)) }));
    deleteWorks(cids).catch((e) => console.warn('local delete failed', e));
  },

  bumpSuccess() {
    const n = get().successCount + 1;
    localStorage.setItem(SUCCESS_COUNTER_KEY, String(n));
    set({ successCount: n });
  },
}));

// Persist every change of the works list, batched (one write per burst of updates).
let persistTimer: ReturnType<typeof setTimeout> | undefined;
const persist = () => {
  persistTimer = undefined;
  return putWorks(useWorks.getState().works);
};
useWorks.subscribe((s, prev) => {
  if (!s.loaded || s.works === prev.works) return;
  clearTimeout(persistTimer);
  persistTimer = setTimeout(() => void persist().catch((e) => console.warn('local save failed', e)), 250);
});

/**
 * Writes the works list now, ending a batch still waiting. The runner awaits it before the server
 * hears of a start: a tab closed (or reloaded) a moment after Start keeps the card with its upload,
 * which the server's record of recent works then finishes (src/stores/processing.ts
 * reconcileWithHistory); a batch still waiting would have lost it.
 */
export function saveWorksNow(): Promise<void> {
  if (!useWorks.getState().loaded) return Promise.resolve();
  clearTimeout(persistTimer);
  return persist();
}

// A burst still waiting when the page is hidden or left is written then (best effort: the browser may
// end the page before the write lands; uploads and refusals are stored on their own, see src/db).
if (typeof addEventListener === 'function') {
  const flush = () => {
    if (persistTimer === undefined) return;
    saveWorksNow().catch((e) => console.warn('local save failed', e));
  };
  addEventListener('pagehide', flush);
  addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flush());
}
