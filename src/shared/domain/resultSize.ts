/** The size of a job's result (spec §4), the largest result we make, and the preview's limit on it. */
import { ENLARGE_MAX_SIDE_PX, PREVIEW_MAX_SIDE_PX } from './constants.js';
import { defaultParams, isModuleName, isPreset, PRESETS } from './modules.js';
import type { Work } from './work.js';

type StepLike = { config?: unknown };

/** A job's steps as configs: a feature's one, a preset's (PRESETS) or a workflow's flows (config may be JSON text). */
function stepConfigs(params: Work['params']): { module?: string; module_params?: Record<string, unknown> }[] {
  if (!params) return [];
  if (params.flows) {
    return (params.flows as StepLike[]).map((f) => {
      const c = typeof f?.config === 'string' ? safeParse(f.config) : f?.config;
      return (c && typeof c === 'object' ? c : {}) as { module?: string; module_params?: Record<string, unknown> };
    });
  }
  if (isPreset(params.job)) return PRESETS[params.job].map((s) => s.config);
  if (params.config) return [params.config];
  return isModuleName(params.job) ? [{ module: params.job, module_params: defaultParams(params.job) }] : [];
}

function safeParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** The scale a chain of steps applies to the image size (product of its enlarge steps). */
export function stepsScale(steps: readonly { module?: string; module_params?: Record<string, unknown> }[]): number {
  let scale = 1;
  for (const c of steps) if (c.module === 'enlarge') scale *= Number(c.module_params?.scale ?? 2) || 1;
  return scale;
}

/** The scale a job applies to the image size: a feature, a preset (se-hd enlarges 2x) or a workflow. */
export function jobScale(params: Work['params'] | undefined): number {
  return stepsScale(stepConfigs(params));
}

/** Why a w×h image cannot be made at this scale: the result's size and the largest side we make. */
export interface OutputTooLarge {
  w: number;
  h: number;
  max: number;
}

/**
 * The one rule for the largest result (the UI disables such scales, the transform route refuses them,
 * the enlarge engine stops on them): null when w×h at this scale fits ENLARGE_MAX_SIDE_PX a side.
 */
export function outputTooLarge(w: number, h: number, scale: number): OutputTooLarge | null {
  const out = outputSize(w, h, scale);
  return scale > 1 && Math.max(out.w, out.h) > ENLARGE_MAX_SIDE_PX ? { ...out, max: ENLARGE_MAX_SIDE_PX } : null;
}

/** The longest side of an image that this scale still enlarges (pricing and the scale note say it). */
export function largestSideFor(scale: number): number {
  return Math.floor(ENLARGE_MAX_SIDE_PX / scale);
}

/** The result's size: what the server reported when it finished (zoomW×zoomH), else w and h times the job's scale. */
export function resultSize(work: Pick<Work, 'w' | 'h' | 'zoomW' | 'zoomH' | 'params'>): { w: number; h: number } {
  if (work.zoomW && work.zoomH) return { w: work.zoomW, h: work.zoomH };
  return outputSize(work.w, work.h, jobScale(work.params));
}

/** Output size: w and h times scale. */
export function outputSize(w: number, h: number, scale: number): { w: number; h: number } {
  return { w: Math.round(w * scale), h: Math.round(h * scale) };
}

/** Spec §4: the after image is not loaded when a scaled side exceeds 18000 px. */
export function previewTooLarge(w: number, h: number, scale: number): boolean {
  return w * scale > PREVIEW_MAX_SIDE_PX || h * scale > PREVIEW_MAX_SIDE_PX;
}
