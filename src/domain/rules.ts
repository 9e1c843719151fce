/** Pure UI rules of the workspace (spec §2, §4, §5, §9). Numbers come from constants.ts. */
import { FILENAME_KEEP_EACH_SIDE, FILENAME_SHORTEN_THRESHOLD, PREVIEW_MAX_SIDE_PX } from './constants.js';
import type { Level } from './plans.js';
import { limitsFor } from './plans.js';
import type { Work, WorkStatus } from './work.js';

export type WorksTab = 'uploaded' | 'processing' | 'processed';

/** Spec §4 tab filters (Processing: everything but finished, processFailed and ready — and failed uploads, which stay on Uploaded). */
export function inTab(status: WorkStatus, tab: WorksTab): boolean {
  switch (tab) {
    case 'processed':
      return status === 'finished' || status === 'processFailed';
    case 'uploaded':
      return status === 'ready' || status === 'uploading' || status === 'waitingForNetwork' || status === 'uploadFailed' || status === 'imageTooLarge';
    case 'processing':
      // A failed or refused upload never processed: it is listed (with its reason) on Uploaded only (issue 31).
      return status !== 'finished' && status !== 'processFailed' && status !== 'ready' && status !== 'uploadFailed' && status !== 'imageTooLarge';
  }
}

export function worksInTab<T extends { status: WorkStatus }>(works: readonly T[], tab: WorksTab): T[] {
  return works.filter((w) => inTab(w.status, tab));
}

/**
 * A stored work whose job the server holds (issue 31): on load its status comes from the server
 * (finish, progress, or unknown) before spec §4's reset-to-ready rule applies.
 */
export function asksServer(w: Pick<Work, 'transId' | 'status' | 'sample' | 'onDevice'>): boolean {
  return !!w.transId && !w.sample && !w.onDevice && w.status !== 'finished';
}

/** Only ready works can be selected, and never more than the plan's batch limit. */
export function canSelect(works: readonly Pick<Work, 'cid' | 'status' | 'selected'>[], cid: string, level: Level): boolean {
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
 * over is the mixed state, not checked (issue 31).
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

/** East Asian wide and fullwidth ranges (Hangul, CJK, kana, fullwidth forms, wide emoji). */
const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

/** Display width of one character: CJK and other wide characters count 2; Latin, Cyrillic, Greek count 1. */
export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  return WIDE_RANGES.some(([a, b]) => cp >= a && cp <= b) ? 2 : 1;
}

function widthOf(s: string): number {
  let n = 0;
  for (const ch of s) n += charWidth(ch);
  return n;
}

function takeWidth(chars: string[], units: number): string {
  let out = '';
  let n = 0;
  for (const ch of chars) {
    const w = charWidth(ch);
    if (n + w > units) break;
    out += ch;
    n += w;
  }
  return out;
}

/** Spec §5: base name shortened when its width is 20 or more, ~10 units each end, extension kept. */
export function shortenFilename(filename: string): string {
  const dot = filename.lastIndexOf('.');
  const base = dot > 0 ? filename.slice(0, dot) : filename;
  const ext = dot > 0 ? filename.slice(dot) : '';
  if (widthOf(base) < FILENAME_SHORTEN_THRESHOLD) return filename;
  const chars = [...base];
  const head = takeWidth(chars, FILENAME_KEEP_EACH_SIDE);
  const tail = [...takeWidth([...chars].reverse(), FILENAME_KEEP_EACH_SIDE)].reverse().join('');
  return `${head}…${tail}${ext}`;
}

/** The scale a job applies to the image size (product of enlarge steps). */
export function jobScale(params: Work['params'] | undefined): number {
  if (!params) return 1;
  const steps = params.flows ?? (params.config ? [{ config: params.config }] : []);
  let scale = 1;
  for (const s of steps as { config?: { module?: string; module_params?: Record<string, unknown> } }[]) {
    if (s.config?.module === 'enlarge') scale *= Number(s.config.module_params?.scale ?? 2) || 1;
  }
  return scale;
}

/** The result's size: what the server reported when it finished (zoomW×zoomH), else w and h times the job's scale. */
export function resultSize(work: Pick<Work, 'w' | 'h' | 'zoomW' | 'zoomH' | 'params'>): { w: number; h: number } {
  if (work.zoomW && work.zoomH) return { w: work.zoomW, h: work.zoomH };
  return outputSize(work.w, work.h, jobScale(work.params));
}

/** A share as a percentage in the page's language ("45%", "45 %"). */
export function formatPercent(share: number, lng: Language): string {
  return new Intl.NumberFormat(NUMBER_LOCALE[lng], { style: 'percent', maximumFractionDigits: 0 }).format(share);
}

/** A file size for people: "632 KB", "1.4 MB" (binary units, as the plan limits count MB), in the page's language. */
export function formatBytes(bytes: number, lng: Language): string {
  if (bytes < 1024 * 1024) return `${formatNumber(Math.max(1, Math.round(bytes / 1024)), lng)} KB`;
  return `${formatNumber(Math.round((bytes / (1024 * 1024)) * 10) / 10, lng)} MB`;
}

/** Output size: w and h times scale. */
export function outputSize(w: number, h: number, scale: number): { w: number; h: number } {
  return { w: Math.round(w * scale), h: Math.round(h * scale) };
}

/** Spec §4: the after image is not loaded when a scaled side exceeds 18000 px. */
export function previewTooLarge(w: number, h: number, scale: number): boolean {
  return w * scale > PREVIEW_MAX_SIDE_PX || h * scale > PREVIEW_MAX_SIDE_PX;
}

export const LANGUAGES = ['en', 'de', 'fr', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(v: unknown): v is Language {
  return typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
}

/** USD for en and ja, EUR for de and fr (spec §9). */
export function currencyFor(lng: Language): 'USD' | 'EUR' {
  return lng === 'de' || lng === 'fr' ? 'EUR' : 'USD';
}

export function formatPrice(amount: number, lng: Language, currency: 'USD' | 'EUR' | 'JPY' = currencyFor(lng)): string {
  return new Intl.NumberFormat(NUMBER_LOCALE[lng], { style: 'currency', currency }).format(amount);
}

const NUMBER_LOCALE: Record<Language, string> = { en: 'en-US', de: 'de-DE', fr: 'fr-FR', ja: 'ja-JP' };

export function formatNumber(n: number, lng: Language): string {
  return new Intl.NumberFormat(NUMBER_LOCALE[lng]).format(n);
}

/** Site links are prefixed by the language code for ja, fr and de; en has none. */
export function localizedPath(path: string, lng: Language): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  return lng === 'en' ? clean : `/${lng}${clean === '/' ? '/' : clean}`;
}

/** Splits a pathname into its language and the language-free path. */
export function splitLanguage(pathname: string): { lng: Language; path: string } {
  const m = /^\/(de|fr|ja)(\/.*)?$/.exec(pathname);
  if (!m) return { lng: 'en', path: pathname || '/' };
  return { lng: m[1] as Language, path: m[2] || '/' };
}

/** Pricing links carry source and medium (spec §2). */
export function pricingUrl(lng: Language, source: string, medium?: string): string {
  const q = new URLSearchParams({ source });
  if (medium) q.set('medium', medium);
  return `${localizedPath('/pricing/', lng)}?${q.toString()}`;
}

/** Default name of a saved workflow when the user leaves it empty: 'workflow_' plus a readable local timestamp (spec §5). */
export function defaultWorkflowName(now: number): string {
  const d = new Date(now);
  const p = (n: number) => String(n).padStart(2, '0');
  return `workflow_${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}_${p(d.getHours())}-${p(d.getMinutes())}-${p(d.getSeconds())}`;
}

/** Workflow name rule: required after defaulting, at most `max` characters. Returns the name or an error key. */
export function normaliseWorkflowName(raw: string, max: number, now: number): { ok: true; name: string } | { ok: false; error: 'nameTooLong' } {
  const name = raw.trim() || defaultWorkflowName(now);
  if ([...name].length > max) return { ok: false, error: 'nameTooLong' };
  return { ok: true, name };
}

/** Status text key for a work card (spec §4: uploading, ready, waiting; other failures read "upload failed"). */
export function statusKey(status: WorkStatus) {
  switch (status) {
    case 'resizing':
    case 'compressing':
    case 'uploading':
      return 'status.uploading';
    case 'waitingForNetwork':
      return 'status.waitingForNetwork';
    case 'ready':
      return 'status.ready';
    case 'waiting':
      return 'status.waiting';
    case 'processing':
      return 'status.processing';
    case 'finished':
      return 'status.finished';
    case 'processFailed':
      return 'status.processFailed';
    case 'imageTooLarge':
      return 'status.imageTooLarge';
    default:
      return 'status.uploadFailed';
  }
}

/** Shortens a filename for the matting editor's output: matting-{basename}.png. */
export function mattingTargetName(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return `matting-${dot > 0 ? filename.slice(0, dot) : filename}.png`;
}
