/**
 * The name a result file is downloaded under, one rule for the server's downloads and the client's
 * editor hand-off (spec §3 targetName): matting results are `matting-<base>.png`, the others
 * `<base>_<job>.<ext>`, where <base> is the upload's name without its extension.
 */
import { splitExtension } from './filename.js';

/** The upload's name without its extension, trimmed; `image` when nothing is left (no name, or `.png`). */
export function resultBase(filename: string | null | undefined): string {
  const { stem, ext } = splitExtension(filename ?? '');
  // a name that is only an extension (`.png`) has no base
  const base = !ext && stem.startsWith('.') ? '' : stem;
  return base.trim() || 'image';
}

/** A result's download name: `matting-<base>.<ext>` for matting, `<base>_<job>.<ext>` for the others. */
export function resultFileName(filename: string | null | undefined, job: string, ext: string): string {
  const base = resultBase(filename);
  return job === 'matting' ? `matting-${base}.${ext}` : `${base}_${job}.${ext}`;
}

/** The matting editor's output name: `matting-<base>.png`. */
export function mattingTargetName(filename: string | null | undefined): string {
  return resultFileName(filename, 'matting', 'png');
}
