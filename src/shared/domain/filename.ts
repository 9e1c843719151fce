/**
 * Filenames, one place for each rule: the name split at its extension, the upload filename rule of spec §5 ("special characters in filenames are replaced with an
 * underscore"), used by the worker before upload and by the server when it stores the name.
 *
 * "Special" here means what is unsafe in a path, a file system or a Content-Disposition header:
 * path separators, control characters, quotes, `< > : * ? | ; % $ # …`. The user's readable name
 * survives: letters, marks and digits of any script, spaces, '.', '_', '-' and parentheses, so
 * `my photo (1).jpg` stays `my photo (1).jpg`.
 */
import { FILENAME_KEEP_EACH_SIDE, FILENAME_MAX_CHARS, FILENAME_SHORTEN_THRESHOLD } from './constants.js';

export type ImageFormat = 'jpeg' | 'png';

/** The extension a stored image of `format` gets. */
const extensionFor = (format: ImageFormat): 'jpg' | 'png' => (format === 'jpeg' ? 'jpg' : 'png');

/**
 * A name split at its last dot: `cat.photo.jpg` → `cat.photo` + `jpg`. A leading dot only (`.hidden`)
 * is no extension. The one extension rule of the client and the worker.
 */
export function splitExtension(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? { stem: name.slice(0, dot), ext: name.slice(dot + 1) } : { stem: name, ext: '' };
}

/** Lower-cased extension after the last dot (none for a leading dot only, e.g. `.hidden`). */
export function extensionOf(name: string): string {
  return splitExtension(name).ext.toLowerCase();
}

/** The name without its extension. */
export function stemOf(name: string): string {
  return splitExtension(name).stem;
}

const UNSAFE = /[^\p{L}\p{M}\p{N}._\- ()]/gu;

function trimTrailingDots(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x2e) end--;
  return s.slice(0, end);
}

/**
 * The stored/displayed name of an upload: no directory part, unsafe characters → '_', no leading
 * dots or blanks, at most {@link FILENAME_MAX_CHARS} characters. With `format` (known from the
 * bytes), the extension is made to match the real format.
 */
export function sanitizeFilename(raw: string, format?: ImageFormat): string {
  const base =
    String(raw ?? '')
      .split(/[\\/]/)
      .pop() ?? '';
  const name = base
    .normalize('NFC')
    .replace(UNSAFE, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  let { stem, ext } = splitExtension(name);
  ext = ext.toLowerCase();
  if (format) {
    const fits = format === 'jpeg' ? ext === 'jpg' || ext === 'jpeg' : ext === 'png';
    if (!fits) {
      // "photo.final" keeps ".final" in its stem; a long or odd tail is part of the name.
      if (ext && !/^[a-z0-9]{1,5}$/.test(ext)) stem = name;
      ext = extensionFor(format);
    }
  }
  // Trailing dots cut by a scan: `/\.+$/` backtracks quadratically on a long run of dots that does
  // not end the name (60 000 dots stalled the server for 7 s).
  stem = trimTrailingDots(stem).trim();
  // A name made only of replaced characters says nothing: call it "image".
  if (/^[_\s]*$/.test(stem)) stem = 'image';
  const tail = ext ? '.' + ext : '';
  return (
    Array.from(stem)
      .slice(0, FILENAME_MAX_CHARS - tail.length)
      .join('') + tail
  );
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
function charWidth(ch: string): number {
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
  const base = stemOf(filename);
  const ext = filename.slice(base.length);
  if (widthOf(base) < FILENAME_SHORTEN_THRESHOLD) return filename;
  const chars = [...base];
  const head = takeWidth(chars, FILENAME_KEEP_EACH_SIDE);
  const tail = [...takeWidth([...chars].reverse(), FILENAME_KEEP_EACH_SIDE)].reverse().join('');
  return `${head}…${tail}${ext}`;
}

/** The matting editor's output name (matting-{basename}.png): the result-name rule's, in resultName.ts. */
export { mattingTargetName } from './resultName.js';
