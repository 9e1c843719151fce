/** The preview dialog's parts: the work's sizes and operation, the mode/zoom/download bar, the touch hold box, the rating foot. */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as endpoints from '../../api/endpoints.js';
import { L } from '../../app/lang.js';
import { PREVIEW_AFTER_DELAY_MS, PREVIEW_BEFORE_DELAY_MS } from '../../shared/domain/constants.js';
import { upsellFor, type Level } from '../../shared/domain/plans.js';
import type { Work } from '../../shared/domain/work.js';
import { downloadButtonClass, downloadWork } from '../workspace/actions.js';
import { resizedFrom } from '../workspace/sizeNote.js';
import type { Zoom } from './usePanZoom.js';

// Hold-to-compare is for touch screens only: loaded when first shown.
const HoldToCompare = lazy(() => import('../../pwa/HoldToCompare.js'));

/**
 * The preview's images appear one after the other (the original first, then the result: spec §4's
 * staged reveal), and the opening is reported; again for another work.
 */
export function useStagedReveal(
  cid: string,
  operation: string | undefined,
): { showBefore: boolean; showAfter: boolean } {
  const [showBefore, setShowBefore] = useState(false);
  const [showAfter, setShowAfter] = useState(false);
  useEffect(() => {
    endpoints.report('preview', { operation });
    const a = setTimeout(() => setShowBefore(true), PREVIEW_BEFORE_DELAY_MS);
    const b = setTimeout(() => setShowAfter(true), PREVIEW_BEFORE_DELAY_MS + PREVIEW_AFTER_DELAY_MS);
    return () => {
      clearTimeout(a);
      clearTimeout(b);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cid]);
  return { showBefore, showAfter };
}

/** The source's size (and what it was resized from), the result's size and the operation. */
export function PreviewInfo({
  work,
  out,
  operation,
}: {
  work: Work;
  out: { w: number; h: number };
  operation: string;
}) {
  const { t } = useTranslation('workspace');
  return (
    <dl className="preview-info">
      <div>
        <dt>{t(resizedFrom(work) ? 'resizedSize' : 'originalSize')}</dt>
        <dd>
          <span data-testid="preview-source-size">
            {work.w}×{work.h}
          </span>
          {resizedFrom(work) && (
            <span className="resized-note" data-testid="preview-resized-note">
              {' '}
              {t('resizedFrom', { w: work.sourceW, h: work.sourceH })}
            </span>
          )}
        </dd>
      </div>
      <div>
        <dt>{t('outputSize')}</dt>
        <dd data-testid="preview-output-size">
          {out.w}×{out.h}
        </dd>
      </div>
      <div>
        <dt>{t('operation')}</dt>
        <dd>{operation}</dd>
      </div>
    </dl>
  );
}

/** Compare / side by side (not for portraits), fit / 1:1 with the wheel's zoom level, and the download. */
export function PreviewControls({
  work,
  tab,
  onTab,
  zoom,
  onZoom,
}: {
  work: Work;
  tab: 1 | 2;
  onTab(t: 1 | 2): void;
  zoom: Zoom;
  onZoom(z: Zoom): void;
}) {
  const { t } = useTranslation('workspace');
  return (
    <div className="preview-actions">
      {work.operation !== 'portrait' && (
        <div className="segmented" role="tablist" aria-label={t('preview.mode')}>
          <button
            role="tab"
            aria-selected={tab === 1}
            className={tab === 1 ? 'on' : ''}
            onClick={() => onTab(1)}
            data-testid="mode-compare"
          >
            {t('preview.compare')}
          </button>
          <button
            role="tab"
            aria-selected={tab === 2}
            className={tab === 2 ? 'on' : ''}
            onClick={() => onTab(2)}
            data-testid="mode-side"
          >
            {t('preview.side')}
          </button>
        </div>
      )}
      <div className="segmented" role="group" aria-label={t('preview.zoom')}>
        <button
          aria-pressed={zoom === 'fit'}
          className={zoom === 'fit' ? 'on' : ''}
          onClick={() => onZoom('fit')}
          data-testid="zoom-fit"
        >
          {t('preview.fit')}
        </button>
        <button
          aria-pressed={zoom === 1}
          className={zoom === 1 ? 'on' : ''}
          onClick={() => onZoom(1)}
          data-testid="zoom-1"
        >
          1:1
        </button>
        {zoom !== 'fit' && zoom !== 1 && (
          <span className="zoom-level" data-testid="zoom-level">
            {Math.round(zoom * 100)}%
          </span>
        )}
      </div>
      <button
        className={`btn btn-primary${downloadButtonClass()}`}
        onClick={() => void downloadWork(work)}
        data-testid="preview-download"
      >
        {t('actions.download')}
      </button>
    </div>
  );
}

/** A result too large to preview: said instead of a stage. */
export function PreviewTooLarge() {
  const { t } = useTranslation('workspace');
  return (
    <div className="preview-stage-wrap">
      <div className="preview-box preview-failed" data-testid="preview-failed">
        <p className="big">{t('preview.failed')}</p>
        <p className="muted">{t('preview.tooLarge')}</p>
      </div>
    </div>
  );
}

/** Touch screens, fit-compare: press and hold to see the original (the PWA helper's component). */
export function TouchHoldStage({ before, after, checker }: { before?: string; after?: string; checker: boolean }) {
  const { t } = useTranslation('workspace');
  return (
    <div className="preview-stage-wrap">
      {/* a cut-out shows on a checkerboard here too: a dark subject vanished on the navy ground */}
      <div className={`preview-box hold-box${checker ? ' hold-checker' : ''}`} data-testid="hold-box">
        {before && after ? (
          <Suspense fallback={<span className="spinner stage-spinner" />}>
            <HoldToCompare beforeSrc={before} afterSrc={after} className="hold-compare" />
          </Suspense>
        ) : (
          <span className="spinner stage-spinner" aria-label={t('loading')} />
        )}
      </div>
    </div>
  );
}

/** Thumbs up or down once per opening (spec §7 thumbsup), and the larger-results upsell for the free levels. */
export function PreviewFoot({ transId, level }: { transId?: string; level: Level }) {
  const { t } = useTranslation('workspace');
  const [liked, setLiked] = useState<null | boolean>(null);
  const vote = (up: boolean) => {
    if (!transId || liked !== null) return;
    setLiked(up);
    void endpoints.thumbsUp(transId, up).catch(() => undefined);
  };
  return (
    <div className="preview-foot">
      <div className="thumbs" role="group" aria-label={t('preview.rate')}>
        <span className="muted small">{t('preview.rate')}</span>
        <button
          className={`icon-btn ${liked === true ? 'on' : ''}`}
          aria-pressed={liked === true}
          aria-label={t('preview.up')}
          onClick={() => vote(true)}
          data-testid="thumbs-up"
        >
          <Thumb up />
        </button>
        <button
          className={`icon-btn ${liked === false ? 'on' : ''}`}
          aria-pressed={liked === false}
          aria-label={t('preview.down')}
          onClick={() => vote(false)}
          data-testid="thumbs-down"
        >
          <Thumb up={false} />
        </button>
      </div>
      {/* Larger results are what the free levels gain (Basic already enlarges 8x): none for subscribers. */}
      {upsellFor(level) === 'paid' && (
        <L to="/pricing/?source=preview&medium=remove_watermark" className="small" data-testid="preview-upsell">
          {t('preview.removeWatermark')}
        </L>
      )}
    </div>
  );
}

function Thumb({ up }: { up: boolean }) {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      style={up ? undefined : { transform: 'rotate(180deg)' }}
    >
      <path d="M7 10v11H3V10h4zm0 0l4-8a3 3 0 013 3v4h6a2 2 0 012 2.3l-1.4 8A2 2 0 0118.6 21H7" />
    </svg>
  );
}
