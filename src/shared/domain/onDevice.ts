/**
 * "Process on this device": which works may run in the browser instead of on the server, and
 * at which limits. On-device results are free and private — the photo never leaves the browser, so the
 * server is never asked and never has to trust the client about credits; in return the choice covers only
 * the three features the browser can run (enlarge 2x with the standard model, background removal,
 * compress) at the guest's image limits. Everything a plan sells (4x–8x, the best enlarge model,
 * workflows, the other features) stays on the server.
 */
import { parseParams, type JobConfig, type ParamsOf } from './modules.js';
import type { Level } from './plans.js';
import { stemOf } from './filename.js';

export const ON_DEVICE_FEATURES = ['enlarge', 'matting', 'compress'] as const;
export type OnDeviceFeature = (typeof ON_DEVICE_FEATURES)[number];

/** The limits a work kept on the device is fitted to (free: the guest's 2.8 MP / 5 MB). */
export const ON_DEVICE_LEVEL: Level = 'guest';

export const isOnDeviceFeature = (job: string): job is OnDeviceFeature =>
  (ON_DEVICE_FEATURES as readonly string[]).includes(job);

/** The enlarge params the device honours (scale 2 and the standard model are fixed), as the server reads them. */
export type OnDeviceEnlarge = Pick<ParamsOf<'enlarge'>, 'autoparams' | 'suppress_noise' | 'remove_blur'>;

/** What a feature runs with on the device: compress's quality, enlarge's denoise/deblur as the user picked them. */
export interface OnDeviceOptions {
  quality?: number;
  enlarge?: OnDeviceEnlarge;
}

export type OnDeviceJob =
  | ({ ok: true; feature: OnDeviceFeature } & OnDeviceOptions)
  | { ok: false; reason: 'onDevice.onlyFeatures' | 'onDevice.only2x' };

/** Whether a job can run on the device, and with what; the reason is an i18n key of the workspace namespace. */
export function onDeviceJob(cfg: JobConfig): OnDeviceJob {
  if (!isOnDeviceFeature(cfg.job)) return { ok: false, reason: 'onDevice.onlyFeatures' };
  const params = 'config' in cfg ? (cfg.config?.module_params ?? {}) : {};
  if (cfg.job === 'enlarge') {
    // The server's own parsing (defaults for missing keys); params it would refuse do not run here either.
    const p = parseParams('enlarge', params);
    if (!p.ok || p.value.scale !== 2 || p.value.quality !== 'high') return { ok: false, reason: 'onDevice.only2x' };
    const { autoparams, suppress_noise, remove_blur } = p.value;
    return { ok: true, feature: 'enlarge', enlarge: { autoparams, suppress_noise, remove_blur } };
  }
  if (cfg.job === 'compress' && typeof params.quality === 'number')
    return { ok: true, feature: 'compress', quality: params.quality };
  return { ok: true, feature: cfg.job };
}

/** The options a runnable job hands the device (compress's quality, enlarge's denoise/deblur). */
export function onDeviceOptions(job: OnDeviceJob): OnDeviceOptions {
  if (!job.ok) return {};
  return {
    ...(job.quality !== undefined ? { quality: job.quality } : {}),
    ...(job.enlarge ? { enlarge: job.enlarge } : {}),
  };
}

/** The file name of an on-device result: `photo-2x.png`, `photo-cutout.png`, `photo-compressed.jpg`. */
export function resultName(filename: string, feature: string, type: string): string {
  const base = stemOf(filename);
  const tag = feature === 'enlarge' ? '2x' : feature === 'matting' ? 'cutout' : 'compressed';
  return `${base}-${tag}.${type === 'image/png' ? 'png' : 'jpg'}`;
}
