/** Honest sizes: a work the plan shrank at upload says so (card, preview) and the user is told once, at upload. */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fitToLimits, largestMegapixels, limitsFor, type PlanLimits } from '../../shared/domain/plans.js';
import { formatNumber } from '../../shared/domain/locale.js';
import { pricingUrl } from '../../shared/domain/links.js';
import type { Work } from '../../shared/domain/work.js';
import { useLang } from '../../app/lang.js';
import { dialogs } from '../../stores/dialogs.js';
import { useUser } from '../../stores/user.js';
import { useWorks } from '../../stores/works.js';

/** The dropped size when the upload was shrunk to fit the plan, else null. */
export function resizedFrom(work: Pick<Work, 'w' | 'h' | 'sourceW' | 'sourceH'>): { w: number; h: number } | null {
  if (!work.sourceW || !work.sourceH || work.w <= 0 || work.h <= 0) return null;
  return work.w * work.h < work.sourceW * work.sourceH ? { w: work.sourceW, h: work.sourceH } : null;
}

/** "Original: 1000×800" or "Uploaded at: 2000×1124 (resized from 5640×3172)". */
export function SizeLine({ work, testId }: { work: Work; testId?: string }) {
  const { t } = useTranslation('workspace');
  const from = resizedFrom(work);
  if (!from) {
    return (
      <>
        {t('originalSize')}:{' '}
        <span data-testid={testId}>
          {work.w}×{work.h}
        </span>
      </>
    );
  }
  return (
    <>
      {t('resizedSize')}:{' '}
      <span data-testid={testId}>
        {work.w}×{work.h}
      </span>{' '}
      <span className="resized-note" data-testid="resized-note">
        {t('resizedFrom', { w: from.w, h: from.h })}
      </span>
    </>
  );
}

/**
 * Which of the plan's limits shrank an upload: its pixels (megapixels or longest side), its file size
 * (the pixels fitted, the file did not: a large, hard-to-compress PNG), or both (fitted to the pixels,
 * it was still too large a file and shrank further).
 */
export type ResizeLimit = 'pixels' | 'fileSize' | 'both';

export function resizeLimitOf(
  work: Pick<Work, 'w' | 'h' | 'sourceW' | 'sourceH'>,
  lim: Pick<PlanLimits, 'maxMegapixels' | 'maxSidePx'>,
): ResizeLimit | null {
  const from = resizedFrom(work);
  if (!from) return null;
  const byPixels = fitToLimits(from.w, from.h, lim);
  if (!byPixels.resized) return 'fileSize';
  // Smaller than the pixel limits alone make it (beyond rounding): the file size shrank it further.
  return work.w < byPixels.w - 1 || work.h < byPixels.h - 1 ? 'both' : 'pixels';
}

const NOTICE_KEY = { pixels: 'resizeNotice', fileSize: 'resizeNoticeFileSize', both: 'resizeNoticeBoth' } as const;

const told = new Set<string>();

/** Tells the user, once per upload, that the plan's limit shrank an image; offers the plan that would not. */
export function useResizeNotice(): void {
  const { t } = useTranslation('workspace');
  const lng = useLang();
  const navigate = useNavigate();
  useEffect(
    () =>
      useWorks.subscribe((s, prev) => {
        for (const w of s.works) {
          // Told at the moment the upload's fitted size arrives, not for works loaded from storage.
          const before = prev.works.find((x) => x.cid === w.cid);
          if (told.has(w.cid) || !before || resizedFrom(before) || !resizedFrom(w)) continue;
          told.add(w.cid);
          const level = useUser.getState().level;
          const lim = limitsFor(level);
          const max = largestMegapixels();
          // Name the limit that applied: a 61 MB PNG within Pro's pixels was told "to fit your plan (34 MP …)".
          const base = t(NOTICE_KEY[resizeLimitOf(w, lim) ?? 'pixels'], {
            name: w.filename,
            w: w.w,
            h: w.h,
            mp: formatNumber(lim.maxMegapixels, lng),
            side: lim.maxSidePx,
            mb: formatNumber(lim.maxFileBytes / 1048576, lng),
          });
          const canGrow = lim.maxMegapixels < max;
          dialogs.toast(canGrow ? `${base} ${t('resizeUpgrade', { max: formatNumber(max, lng) })}` : base, 'info', {
            testId: 'resize-notice',
            actions: canGrow
              ? [
                  {
                    label: t('resizePlans'),
                    onClick: () => navigate(pricingUrl(lng, 'upload', 'resize_notice')),
                    testId: 'resize-plans',
                  },
                ]
              : [],
          });
        }
      }),
    [t, lng, navigate],
  );
}
