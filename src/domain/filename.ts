/**
 * The upload filename rule of spec §5 ("special characters in filenames are replaced with an
 * underscore"), used by the worker before upload and by the server when it stores the name.
 *
 * "Special" here means what is unsafe in a path, a file system or a Content-Disposition header:
 * path separators, control characters, quotes, `< > : * ? | ; % $ # …`. The user's readable name
 * survives: letters, marks and digits of any script, spaces, '.', '_', '-' and parentheses, so
 * `my photo (1).jpg` stays `my photo (1).jpg`.
 */
import { FILENAME_MAX_CHARS } from './constants.js';

export type ImageFormat = 'jpeg' | 'png';

/** The extension a stored image of `format` gets. */
export const extensionFor = (format: ImageFormat): 'jpg' | 'png' => (format === 'jpeg' ? 'jpg' : 'png');

/** Lower-cased extension after the last dot (none for a leading dot only, e.g. `.hidden`). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
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
  const base = String(raw ?? '').split(/[\\/]/).pop() ?? '';
  const name = base.normalize('NFC').replace(UNSAFE, '_').replace(/^[.\s]+/, '').trim();
  const dot = name.lastIndexOf('.');
  let stem = dot > 0 ? name.slice(0, dot) : name;
  let ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (format) {
    const fits = format === 'jpeg' ? ext === 'jpg' || ext === 'jpeg' : ext === 'png';
    if (!fits) {
      // "photo.final" keeps ".final" in its stem; a long or odd tail is part of the name.
      if (ext && !/^[a-z0-9]{1,5}$/.test(ext)) stem = name;
      ext = extensionFor(format);
    }
  }
  // Trailing dots cut by a scan: `/\.+$/` backtracks quadratically on a long run of dots that does
  // not end the name (60 000 dots stalled the server for 7 s, issue 28).
  stem = trimTrailingDots(stem).trim();
  // A name made only of replaced characters says nothing: call it "image".
  if (/^[_\s]*$/.test(stem)) stem = 'image';
  const tail = ext ? '.' + ext : '';
  return Array.from(stem).slice(0, FILENAME_MAX_CHARS - tail.length).join('') + tail;
}
