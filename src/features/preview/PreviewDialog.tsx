/** Before/after preview (spec §2, §4): info, download, fit-compare / side-by-side, 1:1 pan with navigator. */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as endpoints from '../../api/endpoints.js';
import { PREVIEW_AFTER_DELAY_MS, PREVIEW_BEFORE_DELAY_MS } from '../../shared/domain/constants.js';
import { jobScale, previewTooLarge, resultSize } from '../../shared/domain/resultSize.js';
import { upsellFor } from '../../shared/domain/plans.js';
import { Modal } from '../../components/Modal.js';
import { L } from '../../app/lang.js';
import { useUser } from '../../stores/user.js';
import { useWorks } from '../../stores/works.js';
import { downloadButtonClass, downloadWork, previewUrls } from '../workspace/actions.js';
import { operationLabel } from '../workspace/operationLabel.js';
import { resizedFrom } from '../workspace/sizeNote.js';
import { CompareStage } from './CompareStage.js';
import type { Zoom } from './usePanZoom.js';

// Hold-to-compare is for touch screens only: loaded when first shown.
const HoldToCompare = lazy(() => import('../../pwa/HoldToCompare.js'));

const isTouch = () => typeof window !== 'undefined' && (window.matchMedia?.('(pointer: coarse)').matches || 'ontouchstart' in window);

/** 1 = fit-compare, 2 = side-by-side (spec §2); enlarge, sharpen, denoise open side-by-side. */
export function defaultCompareTab(operation: string | undefined): 1 | 2 {
  return operation === 'enlarge' || operation === 'sharpen' || operation === 'denoise' ? 2 : 1;
}

export function PreviewDialog({ cid, onClose }: { cid: string; onClose(): void }) {
  const { t } = useTranslation('workspace');
  const work = useWorks((s) => s.works.find((w) => w.cid === cid));
  const userToken = useUser((s) => s.userToken) ?? '';
  const level = useUser((s) => s.level);
  const [tab, setTab] = useState<1 | 2>(defaultCompareTab(work?.operation));
  // 'fit', or a scale of the output's pixels (1 = 1:1); enlarge opens at 1:1, where the added detail shows.
  const [zoom, setZoom] = useState<Zoom>(work?.operation === 'enlarge' ? 1 : 'fit');
  const [showBefore, setShowBefore] = useState(false);
  const [showAfter, setShowAfter] = useState(false);
  const [liked, setLiked] = useState<null | boolean>(null);
  const [touch] = useState(isTouch);
  const scale = jobScale(work?.params);
  const tooLarge = work ? previewTooLarge(work.w, work.h, scale) : false;

  useEffect(() => {
    endpoints.report('preview', { operation: work?.operation });
    const a = setTimeout(() => setShowBefore(true), PREVIEW_BEFORE_DELAY_MS);
    const b = setTimeout(() => setShowAfter(true), PREVIEW_BEFORE_DELAY_MS + PREVIEW_AFTER_DELAY_MS);
    return () => {
      clearTimeout(a);
      clearTimeout(b);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cid]);

  if (!work) return null;
  const urls = previewUrls(work, userToken);
  // the result's real size once the server reported it (an old-photo result showed the input's)
  const out = resultSize(work);
  const opLabel = operationLabel(work);
  const before = showBefore ? urls.before : undefined;
  const after = showAfter && !tooLarge ? urls.after : undefined;

  const vote = (up: boolean) => {
    if (!work.transId || liked !== null) return;
    setLiked(up);
    void endpoints.thumbsUp(work.transId, up).catch(() => undefined);
  };

  return (
    <Modal title={work.filename} onClose={onClose} size="xl" testId="preview-dialog" className="preview-modal">
      <div className="preview-head">
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
            <dd>{opLabel}</dd>
          </div>
        </dl>
        <div className="preview-actions">
          {work.operation !== 'portrait' && (
            <div className="segmented" role="tablist" aria-label={t('preview.mode')}>
              <button role="tab" aria-selected={tab === 1} className={tab === 1 ? 'on' : ''} onClick={() => setTab(1)} data-testid="mode-compare">
                {t('preview.compare')}
              </button>
              <button role="tab" aria-selected={tab === 2} className={tab === 2 ? 'on' : ''} onClick={() => setTab(2)} data-testid="mode-side">
                {t('preview.side')}
              </button>
            </div>
          )}
          <div className="segmented" role="group" aria-label={t('preview.zoom')}>
            <button aria-pressed={zoom === 'fit'} className={zoom === 'fit' ? 'on' : ''} onClick={() => setZoom('fit')} data-testid="zoom-fit">
              {t('preview.fit')}
            </button>
            <button aria-pressed={zoom === 1} className={zoom === 1 ? 'on' : ''} onClick={() => setZoom(1)} data-testid="zoom-1">
              1:1
            </button>
            {zoom !== 'fit' && zoom !== 1 && (
              <span className="zoom-level" data-testid="zoom-level">
                {Math.round(zoom * 100)}%
              </span>
            )}
          </div>
          <button className={`btn btn-primary${downloadButtonClass()}`} onClick={() => void downloadWork(work)} data-testid="preview-download">
            {t('actions.download')}
          </button>
        </div>
      </div>
      {tooLarge ? (
        <div className="preview-stage-wrap">
          <div className="preview-box preview-failed" data-testid="preview-failed">
            <p className="big">{t('preview.failed')}</p>
            <p className="muted">{t('preview.tooLarge')}</p>
          </div>
        </div>
      ) : touch && tab === 1 && zoom === 'fit' ? (
        // Touch screens: press and hold to see the original (the PWA helper's component).
        <div className="preview-stage-wrap">
          {/* a cut-out shows on a checkerboard here too: a dark subject vanished on the navy ground */}
          <div className={`preview-box hold-box${work.operation === 'matting' ? ' hold-checker' : ''}`} data-testid="hold-box">
            {before && after ? (
              <Suspense fallback={<span className="spinner stage-spinner" />}>
                <HoldToCompare beforeSrc={before} afterSrc={after} className="hold-compare" />
              </Suspense>
            ) : (
              <span className="spinner stage-spinner" aria-label={t('loading')} />
            )}
          </div>
        </div>
      ) : (
        <CompareStage
          before={before}
          after={after}
          tab={work.operation === 'portrait' ? 1 : tab}
          zoom={zoom}
          onZoom={setZoom}
          natural={out}
          transparent={work.operation === 'matting'}
          holdButton={touch}
        />
      )}
      <div className="preview-foot">
        <div className="thumbs" role="group" aria-label={t('preview.rate')}>
          <span className="muted small">{t('preview.rate')}</span>
          <button className={`icon-btn ${liked === true ? 'on' : ''}`} aria-pressed={liked === true} aria-label={t('preview.up')} onClick={() => vote(true)} data-testid="thumbs-up">
            <Thumb up />
          </button>
          <button className={`icon-btn ${liked === false ? 'on' : ''}`} aria-pressed={liked === false} aria-label={t('preview.down')} onClick={() => vote(false)} data-testid="thumbs-down">
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
    </Modal>
  );
}

function Thumb({ up }: { up: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" style={up ? undefined : { transform: 'rotate(180deg)' }}>
      <path d="M7 10v11H3V10h4zm0 0l4-8a3 3 0 013 3v4h6a2 2 0 012 2.3l-1.4 8A2 2 0 0118.6 21H7" />
    </svg>
  );
}
