/** One handler for every failure: aborts are ignored, everything else shows the catalogue text (spec §8). */
import axios from 'axios';
import { ApiError } from '../api/client.js';
import { CODE } from '../shared/domain/codes.js';
import { reasonOf } from '../shared/domain/refusal.js';
import type { Reason } from '../shared/domain/reasons.js';
import { SOURCE_MAX_MEGAPIXELS } from '../shared/domain/constants.js';
import { uploadRefusalText, type UploadRefusalInfo } from '../shared/domain/uploadRefusals.js';
import { limitsFor, uploadQueueMax, type Level } from '../shared/domain/plans.js';
import { formatNumber, LANGUAGES, type Language } from '../shared/domain/locale.js';
import { i18n } from '../i18n/index.js';
import { isKey, type AnyKey } from '../i18n/keys.js';
import { dialogs } from '../stores/dialogs.js';

function isAbort(e: unknown): boolean {
  return (
    (e instanceof DOMException && e.name === 'AbortError') ||
    axios.isCancel(e) ||
    (e as { code?: string })?.code === 'ERR_CANCELED'
  );
}

/**
 * The translated text of a refusal's reason (data.reason, src/shared/domain/reasons.ts), with the values
 * it names (field, max, …); null when the answer carries none or this client has no text for it.
 */
export function reasonText(data: unknown): string | null {
  const r = reasonOf(data);
  return r && i18n.exists(`reasons:${r.reason}`) ? i18n.t(`reasons:${r.reason as Reason}`, r) : null;
}

/** The catalogue text of an error, or null when it should be ignored: its reason's text where it has one, else its code's. */
export function errorText(e: unknown): string | null {
  if (isAbort(e)) return null;
  if (e instanceof ApiError) {
    const reason = reasonText(e.data);
    if (reason) return reason;
    const known: Record<number, AnyKey> = {
      [CODE.COMMON_PARAMETER_ERROR]: 'errors:code.1',
      [CODE.USERNAME_NOT_EXIST]: 'errors:code.2',
      [CODE.WRONG_PASSWORD]: 'errors:code.3',
      [CODE.VALIDATION_INVALID]: 'errors:code.5',
      [CODE.VERIFICATION_FAILED]: 'errors:code.6',
      [CODE.PARAM_ERROR]: 'errors:code.10001',
      [CODE.INSUFFICIENT_CREDITS]: 'errors:insufficientTitle',
    };
    return i18n.t(known[e.code] ?? 'errors:generic');
  }
  if (axios.isAxiosError(e) && !e.response) return i18n.t('errors:network');
  // Not an answer of ours (a script failure, a broken response): the catalogue's second generic text.
  return i18n.t('errors:genericRetry');
}

/** The text of a failed or refused upload: the server's refusal translated from its code (its own text only when it has none), else the client's key. */
export function uploadErrorText(
  failure: { error?: string; refusal?: UploadRefusalInfo; size?: { w?: number; h?: number } },
  level: Level = 'guest',
): string {
  // The plan's numbers the texts name (the same ones the upload zone and pricing show), and the file's own size where a text names it.
  const lim = limitsFor(level);
  const lng = ((LANGUAGES as readonly string[]).includes(i18n.language) ? i18n.language : 'en') as Language;
  const { w, h } = failure.size ?? {};
  const values = {
    mp: formatNumber(lim.maxMegapixels, lng),
    side: lim.maxSidePx,
    count: uploadQueueMax(level),
    size: w && h ? ` (${w}×${h})` : '',
    maxMp: formatNumber(SOURCE_MAX_MEGAPIXELS, lng),
  };
  if (failure.refusal) {
    const { key, reason, mb } = uploadRefusalText(failure.refusal);
    return i18n.t(key, { ...values, mb, reason: reason || i18n.t('upload:uploadFailed') });
  }
  const error = failure.error ?? 'upload:unknown';
  const key = error.includes(':') ? error : `upload:${error}`;
  return isKey(key) ? i18n.t(key, values) : i18n.t('errors:unknown');
}

/** The browser knows it has no network: a state shown by the offline banner, not an error. */
function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/**
 * `background`: a call nobody clicked for (start-up, refreshes) — offline it stays silent, since it
 * is retried when the network is back. A click while offline gets a short notice instead of a dialog.
 */
export function handleError(e: unknown, opts: { background?: boolean } = {}): void {
  if (isAbort(e)) return;
  if (isOffline()) {
    if (!opts.background) dialogs.toast(i18n.t('errors:offline'), 'info');
    return;
  }
  if (axios.isAxiosError(e) && !e.response) {
    // The server could not be reached: not blocking either, the user can simply try again.
    if (!opts.background) dialogs.toast(i18n.t('errors:network'), 'error');
    return;
  }
  if (e instanceof ApiError && e.code === CODE.INSUFFICIENT_CREDITS) {
    dialogs.open({ kind: 'insufficientCredits' });
    return;
  }
  if (e instanceof ApiError && e.code === CODE.NOT_ENOUGH_POINTS) {
    dialogs.open({ kind: 'notEnoughPoints' });
    return;
  }
  const text = errorText(e);
  if (text) dialogs.open({ kind: 'message', message: text, tone: 'error' });
  if (!(e instanceof ApiError)) console.error(e);
}
