/**
 * A finished work's card shows its result, not its input: an 80×80 thumbnail made once
 * from the result, in the browser, kept on the work. Results above RESULT_THUMB_MAX_PIXELS keep the
 * input's thumbnail rather than fetching a very large file for 80 pixels.
 */
import { waitForUserToken } from '../api/client.js';
import * as endpoints from '../api/endpoints.js';
import { THUMBNAIL_SIZE } from '../shared/domain/constants.js';
import { resultSize } from '../shared/domain/resultSize.js';
import type { Work } from '../shared/domain/work.js';
import { useWorks } from './works.js';

const RESULT_THUMB_MAX_PIXELS = 12_000_000;

export async function makeResultThumbnail(cid: string): Promise<void> {
  const work = useWorks.getState().works.find((w) => w.cid === cid);
  if (!work || work.status !== 'finished' || work.resultThumbnail) return;
  const src = await resultSource(work);
  if (!src) return;
  try {
    const res = await fetch(src, { credentials: 'include' });
    if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('image/')) return;
    const blob = await res.blob();
    // the result file itself (preview serves the result): its size is what compress saved
    useWorks.getState().update(cid, { resultBytes: blob.size });
    const bitmap = await createImageBitmap(blob);
    const side = THUMBNAIL_SIZE;
    const canvas = document.createElement('canvas');
    canvas.width = side;
    canvas.height = side;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    // cover, centred (as the card's object-fit: cover shows the input's)
    const k = Math.max(side / bitmap.width, side / bitmap.height);
    const w = bitmap.width * k;
    const h = bitmap.height * k;
    ctx.drawImage(bitmap, (side - w) / 2, (side - h) / 2, w, h);
    bitmap.close();
    // PNG keeps a cut-out's transparency (the card's checkerboard shows through)
    const url = canvas.toDataURL(work.operation === 'matting' ? 'image/png' : 'image/jpeg', 0.85);
    if (useWorks.getState().works.find((w) => w.cid === cid)?.transId === work.transId)
      useWorks.getState().update(cid, { resultThumbnail: url });
  } catch {
    // the input's thumbnail stays
  }
}

async function resultSource(work: Work): Promise<string | undefined> {
  if (work.sample || work.onDevice) return work.targetImg;
  if (!work.transId) return undefined;
  const size = resultSize(work);
  if (size.w * size.h > RESULT_THUMB_MAX_PIXELS) return undefined;
  return endpoints.previewUrl(work.transId, await waitForUserToken());
}
