/** Work actions shared by the list and the preview: download (single and bulk), delete, image links. */
import axios from 'axios';
import { ApiError, refusalOf, waitForUserToken } from '../../api/client.js';
import * as endpoints from '../../api/endpoints.js';
import { CODE, type Envelope } from '../../shared/domain/codes.js';
import { CREDIT_REFRESH_AFTER_BULK_MS } from '../../shared/domain/constants.js';
import type { Work } from '../../shared/domain/work.js';
import { errorText, handleError } from '../../app/handleError.js';
import { i18n } from '../../i18n/index.js';
import { dialogs, useDialogs } from '../../stores/dialogs.js';
import { useUser } from '../../stores/user.js';
import { useWorks } from '../../stores/works.js';
import { COOKIE, getCookie } from '../../lib/cookies.js';

/** The bulk download is switched off (spec §6) unless VITE_BULK_DOWNLOAD=1. */
export const BULK_DOWNLOAD_ENABLED = import.meta.env.VITE_BULK_DOWNLOAD === '1';

/** Before image: built from uid; after image: from transId. Samples use their preset images. */
export function previewUrls(work: Work, userToken: string): { before?: string; after?: string } {
  // Samples use their preset images; works processed on this device their stored ones (object URLs).
  if (work.sample || work.onDevice) return { before: work.originImg, after: work.targetImg };
  return {
    before: work.uid ? endpoints.sourceUrl(work.uid, userToken) : undefined,
    after: work.transId ? endpoints.previewUrl(work.transId, userToken) : undefined,
  };
}

function filenameFrom(disposition: string | undefined, fallback: string): string {
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '');
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(disposition ?? '');
  return plain ? plain[1] : fallback;
}

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function downloadWork(work: Work): Promise<void> {
  // Processed on this device: the stored result, nothing asked of the server.
  if (work.onDevice) return saveDeviceResult(work);
  const { setDownloading } = useDialogs.getState();
  setDownloading('single');
  void endpoints.siteAjax('credit_download').catch(() => undefined);
  try {
    if (work.sample) {
      const res = await axios.get<Blob>(work.targetImg ?? '', { responseType: 'blob' });
      save(res.data, `${work.operation ?? 'result'}-${work.filename}`);
      return;
    }
    const token = await waitForUserToken();
    const res = await axios.get<Blob>(endpoints.downloadUrl(work.transId ?? '', token), {
      responseType: 'blob',
      withCredentials: true,
    });
    if (res.data.type.includes('json')) {
      throw await refusalOf(JSON.parse(await res.data.text()) as Envelope);
    }
    save(res.data, filenameFrom(res.headers['content-disposition'] as string | undefined, work.filename));
  } catch (e) {
    handleError(e);
  } finally {
    setDownloading(null);
  }
}

async function saveDeviceResult(work: Work): Promise<void> {
  const result = (await import('../../db/index.js').then((db) => db.getUploadItem(work.cid)).catch(() => undefined))
    ?.result;
  if (!result) return void dialogs.toast(i18n.t('workspace:onDevice.failed'), 'error');
  save(result, work.targetName ?? work.filename);
}

/**
 * "Download selected": the chosen results saved one after another through the
 * single-download call, so the spec's bulk switch (§6) stays as it is. Each waits for the one before.
 */
export async function downloadSelected(works: Work[], onProgress?: (n: number) => void): Promise<number> {
  const chosen = works.filter((w) => w.status === 'finished' && w.checked);
  let n = 0;
  for (const w of chosen) {
    onProgress?.(++n);
    await downloadWork(w);
  }
  return n;
}

/** Bulk download: point check first (30004 → not-enough-points popup), then the bulk link. */
export async function downloadAll(works: Work[]): Promise<void> {
  const ids = works
    .filter((w) => w.status === 'finished' && w.transId && !w.sample && !w.onDevice)
    .map((w) => w.transId as string);
  if (ids.length === 0) return;
  endpoints.report('download_all', { count: ids.length });
  const { setDownloading } = useDialogs.getState();
  setDownloading('bulk');
  try {
    const token = useUser.getState().userToken ?? (await waitForUserToken());
    const { download_all_id } = await endpoints.pointCheck(token, ids);
    window.location.assign(endpoints.bulkDownloadUrl(download_all_id));
    setTimeout(
      () =>
        void useUser
          .getState()
          .refreshCredits()
          .catch(() => undefined),
      CREDIT_REFRESH_AFTER_BULK_MS,
    );
  } catch (e) {
    if (e instanceof ApiError && e.code === CODE.NOT_ENOUGH_POINTS) {
      endpoints.report('add_credits_popup', { from: 'download_all' });
      dialogs.open({ kind: 'notEnoughPoints' });
    } else if (axios.isAxiosError(e) && !e.response)
      dialogs.open({ kind: 'message', message: i18n.t('errors:checkNetwork'), tone: 'error' });
    else handleError(e);
  } finally {
    setDownloading(null);
  }
}

/** Deletes works after a confirmation; uploaded files are removed on the server too. */
export function confirmDelete(works: Work[]): void {
  if (works.length === 0) return;
  const t = i18n.t;
  dialogs.open({
    kind: 'confirm',
    title: t('workspace:delete.title'),
    message: t('workspace:delete.message', { count: works.length }),
    confirmLabel: t('workspace:delete.confirm'),
    onConfirm: () => void deleteNow(works),
  });
}

/**
 * Spec §7 "Delete 200: remove items": works whose upload the server holds leave the list when the
 * server answers 200 (10001: 'parameter error', the works stay); works it does not hold (samples,
 * failed uploads, on-device, an upload another work still uses) leave at once.
 */
export async function deleteNow(works: Work[]): Promise<void> {
  const cids = new Set(works.map((w) => w.cid));
  const others = useWorks.getState().works.filter((o) => !cids.has(o.cid));
  const onServer = (w: Work) => !w.sample && !w.onDevice && !!w.uid && !others.some((o) => o.uid === w.uid);
  const local = works.filter((w) => !onServer(w));
  const remote = works.filter(onServer);
  if (local.length) useWorks.getState().remove(local.map((w) => w.cid));
  if (remote.length === 0) return;
  try {
    await endpoints.uploadDelete([...new Set(remote.map((w) => w.uid as string))]);
    useWorks.getState().remove(remote.map((w) => w.cid));
  } catch (e) {
    if (e instanceof ApiError && e.code === CODE.PARAM_ERROR)
      dialogs.toast(errorText(e) ?? i18n.t('errors:code.10001'), 'error');
    else handleError(e);
  }
}

/** Spec §6: the userType cookie (basic or pro) styles the download button. */
export function downloadButtonClass(): string {
  const type = getCookie(COOKIE.userType);
  return type === 'basic' || type === 'pro' ? ` dl-${type}` : '';
}
