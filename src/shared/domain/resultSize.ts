/** The size of a job's result (spec §4) and the preview's limit on it. */
import { PREVIEW_MAX_SIDE_PX } from './constants.js';
import type { Work } from './work.js';

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

/** Output size: w and h times scale. */
export function outputSize(w: number, h: number, scale: number): { w: number; h: number } {
  return { w: Math.round(w * scale), h: Math.round(h * scale) };
}

/** Spec §4: the after image is not loaded when a scaled side exceeds 18000 px. */
export function previewTooLarge(w: number, h: number, scale: number): boolean {
  return w * scale > PREVIEW_MAX_SIDE_PX || h * scale > PREVIEW_MAX_SIDE_PX;
}
