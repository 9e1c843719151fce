/** Before/after preview (spec §2, §4): info, download, fit-compare / side-by-side, 1:1 pan with navigator. */
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as endpoints from '../../api/endpoints.js';
import { PREVIEW_AFTER_DELAY_MS, PREVIEW_BEFORE_DELAY_MS, PREVIEW_THUMB_BOX } from '../../domain/constants.js';
import { jobScale, previewTooLarge, resultSize } from '../../domain/resultSize.js';
import { upsellFor } from '../../domain/plans.js';
import { Modal } from '../../components/Modal.js';
import { L } from '../../app/lang.js';
import { useUser } from '../../stores/user.js';
import { useWorks } from '../../stores/works.js';
import { downloadButtonClass, downloadWork, previewUrls } from '../workspace/actions.js';
import { operationLabel } from '../workspace/operationLabel.js';
import { resizedFrom } from '../workspace/sizeNote.js';
import { clampOffset, Navigator } from './Navigator.js';
import { detailCentreOf } from './detail.js';

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
  // the result's real size once the server reported it (issue 31: an old-photo result showed the input's)
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
          {/* a cut-out shows on a checkerboard here too: a dark subject vanished on the navy ground (issue 31) */}
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
        {/* Larger results are what the free levels gain (Basic already enlarges 8x): none for subscribers (issue 31). */}
        {upsellFor(level) === 'paid' && (
          <L to="/pricing/?source=preview&medium=remove_watermark" className="small" data-testid="preview-upsell">
            {t('preview.removeWatermark')}
          </L>
        )}
      </div>
    </Modal>
  );
}

export type Zoom = 'fit' | number;
/** Zooming stops at 4× the output's pixels. */
const MAX_ZOOM = 4;
const WHEEL_STEP = 1.15;

interface StageProps {
  before?: string;
  after?: string;
  tab: 1 | 2;
  zoom: Zoom;
  onZoom(z: Zoom): void;
  natural: { w: number; h: number };
  /** the result has transparency (background removal): a checkerboard behind it, a neutral ground otherwise */
  transparent?: boolean;
  /** touch screens: a press-and-hold button shows the original in place of the result, in every mode */
  holdButton?: boolean;
}

/**
 * Where the navigator sits and how small it is: inside the part of the result's pane the image
 * covers (never over the letterbox or outside the picture), at most 40% of that part and never
 * more than half the spec's 304×190 box, so it does not hide what it navigates.
 */
export function navigatorPlacement(at: { x: number; y: number }, box: { w: number; h: number }, view: { w: number; h: number }, thumb: { width: number; height: number }) {
  const left = Math.max(0, at.x);
  const top = Math.max(0, at.y);
  const right = Math.min(view.w, at.x + box.w);
  const bottom = Math.min(view.h, at.y + box.h);
  const w = Math.max(0, right - left);
  const h = Math.max(0, bottom - top);
  const k = Math.max(0.2, Math.min(0.5, (0.4 * w) / thumb.width, (0.4 * h) / thumb.height));
  return { left, top, width: w, height: h, scale: k };
}

function CompareStage({ before, after, tab, zoom, onZoom, natural, transparent, holdButton }: StageProps) {
  const { t } = useTranslation('workspace');
  const tp = useTranslation('pwa').t;
  const [holding, setHolding] = useState(false);
  const stage = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ w: 0, h: 0 });
  const [pos, setPos] = useState(0.5);
  const [offset, setOffset] = useState<{ x: number; y: number } | null>(null);
  const [loaded, setLoaded] = useState<{ before: boolean; after: boolean }>({ before: false, after: false });
  const dragged = useRef(false);
  const pan = useRef<{ x: number; y: number; ox: number; oy: number } | null>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<{ d: number; scale: number } | null>(null);

  useLayoutEffect(() => {
    const el = stage.current;
    if (!el) return;
    const measure = () => setView({ w: el.clientWidth, h: el.clientHeight });
    measure();
    // Older engines (and jsdom) lack ResizeObserver: fall back to window resizes.
    if (typeof ResizeObserver === 'undefined') {
      window.addEventListener('resize', measure);
      return () => window.removeEventListener('resize', measure);
    }
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [tab]);

  const paneView = view;
  const fit = Math.min(paneView.w / (natural.w || 1), paneView.h / (natural.h || 1)) || 1;
  const scale = zoom === 'fit' ? fit : zoom;
  const box = { w: natural.w * scale, h: natural.h * scale };
  const centred = { x: (paneView.w - box.w) / 2, y: (paneView.h - box.h) / 2 };
  const at = zoom === 'fit' || !offset ? clampOffset(centred, box, paneView) : clampOffset(offset, box, paneView);
  const zoomed = zoom !== 'fit' && (box.w > paneView.w || box.h > paneView.h);

  // A zoom from the buttons (Fit, 1:1) starts centred; a wheel or pinch zoom keeps its own position.
  const gesture = useRef(false);
  useEffect(() => {
    if (gesture.current) gesture.current = false;
    else setOffset(null);
  }, [zoom]);

  // Wheel events can come faster than renders: the latest scale and position are kept in refs.
  const scaleRef = useRef(scale);
  const atRef = useRef(at);
  scaleRef.current = scale;
  atRef.current = at;

  /** Zooms to `next` keeping the image point under (cx, cy) where it is. */
  const zoomAt = (next: number, cx: number, cy: number) => {
    const k = Math.max(Math.min(fit, 1), Math.min(MAX_ZOOM, next));
    if (k <= fit + 1e-6) {
      scaleRef.current = fit;
      gesture.current = true;
      onZoom('fit');
      setOffset(null);
      return;
    }
    const cur = scaleRef.current;
    const px = (cx - atRef.current.x) / cur;
    const py = (cy - atRef.current.y) / cur;
    const o = { x: cx - px * k, y: cy - py * k };
    scaleRef.current = k;
    atRef.current = o;
    gesture.current = true;
    setOffset(o);
    onZoom(k);
  };
  const zoomRef = useRef(zoomAt);
  zoomRef.current = zoomAt;

  // Wheel zoom needs a non-passive listener (to keep the page still); on the whole stage, the navigator included.
  useEffect(() => {
    const wrap = stage.current?.closest<HTMLElement>('.preview-stage-wrap');
    if (!wrap) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const panes = [...wrap.querySelectorAll<HTMLElement>('.stage')];
      const under = panes.find((p) => p.contains(e.target as Node));
      const r = (under ?? panes[panes.length - 1]).getBoundingClientRect();
      // Over the navigator the zoom centres on the view.
      const cx = under ? e.clientX - r.left : r.width / 2;
      const cy = under ? e.clientY - r.top : r.height / 2;
      zoomRef.current(scaleRef.current * (e.deltaY < 0 ? WHEEL_STEP : 1 / WHEEL_STEP), cx, cy);
    };
    wrap.addEventListener('wheel', onWheel, { passive: false });
    return () => wrap.removeEventListener('wheel', onWheel);
  }, [tab]);

  const reportDrag = () => {
    if (dragged.current) return;
    dragged.current = true;
    endpoints.report('preview_drag', {});
  };

  const setFromPointer = (clientX: number) => {
    const r = stage.current?.getBoundingClientRect();
    if (!r) return;
    setPos(Math.max(0, Math.min(1, (clientX - r.left) / r.width)));
  };

  const img = (src: string | undefined, which: 'before' | 'after', clip?: string, testId = `img-${which}`) =>
    src ? (
      <img
        src={src}
        alt={t(which === 'before' ? 'preview.before' : 'preview.after')}
        className={`stage-img ${loaded[which] ? 'loaded' : ''} ${transparent && which === 'after' ? 'checker' : ''}`}
        // Held: the result steps aside for the original (already loaded, so nothing flickers).
        style={{ left: at.x, top: at.y, width: box.w, height: box.h, clipPath: clip, visibility: holding && which === 'after' ? 'hidden' : undefined }}
        onLoad={(e) => {
          setLoaded((l) => ({ ...l, [which]: true }));
          if (which === 'after') focusDetail(e.currentTarget);
        }}
        draggable={false}
        data-testid={testId}
      />
    ) : null;

  const loading = !after || !loaded.after;

  // Opened zoomed in (enlarge opens at 1:1): on the part of the picture with detail, not on a plain
  // centre (issue 31); once per dialog, and never over a position the user chose.
  const focused = useRef(false);
  const focusDetail = (el: HTMLImageElement) => {
    if (focused.current || zoom === 'fit' || offset || !zoomed) return;
    focused.current = true;
    const c = detailCentreOf(el, paneView, scale);
    if (c) setOffset({ x: paneView.w / 2 - c.x * box.w, y: paneView.h / 2 - c.y * box.h });
  };

  // Drag pans whenever the image is larger than the view (any zoom); two fingers pinch-zoom.
  const handlers = {
    onPointerDown: (e: React.PointerEvent) => {
      if ((e.target as HTMLElement).closest('.divider')) return;
      pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
      if (pointers.current.size === 2) {
        const [a, b] = [...pointers.current.values()];
        pinch.current = { d: Math.hypot(a.x - b.x, a.y - b.y), scale };
        pan.current = null;
        return;
      }
      if (zoomed) {
        pan.current = { x: e.clientX, y: e.clientY, ox: at.x, oy: at.y };
        reportDrag();
      }
    },
    onPointerMove: (e: React.PointerEvent) => {
      if (!pointers.current.has(e.pointerId)) return;
      pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pinch.current && pointers.current.size === 2) {
        const [a, b] = [...pointers.current.values()];
        const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
        zoomAt((pinch.current.scale * Math.hypot(a.x - b.x, a.y - b.y)) / (pinch.current.d || 1), (a.x + b.x) / 2 - r.left, (a.y + b.y) / 2 - r.top);
        return;
      }
      if (!pan.current) return;
      setOffset({ x: pan.current.ox + e.clientX - pan.current.x, y: pan.current.oy + e.clientY - pan.current.y });
    },
    onPointerUp: (e: React.PointerEvent) => {
      pointers.current.delete(e.pointerId);
      if (pointers.current.size < 2) pinch.current = null;
      pan.current = null;
    },
    onPointerCancel: (e: React.PointerEvent) => {
      pointers.current.delete(e.pointerId);
      pinch.current = null;
      pan.current = null;
    },
  };
  const place = navigatorPlacement(at, box, paneView, PREVIEW_THUMB_BOX);
  const navigator =
    zoom !== 'fit' ? (
      <div className="navigator-anchor" style={{ left: place.left, top: place.top, width: place.width, height: place.height }} data-testid="navigator-anchor">
        <div className="navigator-scale" style={{ transform: `scale(${place.scale})` }}>
          <Navigator src={after ?? before} natural={box.w ? box : null} view={paneView} offset={at} onPan={setOffset} onDragStart={reportDrag} />
        </div>
      </div>
    ) : null;
  const cls = `preview-box stage ${zoomed ? 'is-zoomed' : ''} ${transparent ? '' : 'opaque'} ${holding ? 'is-holding' : ''}`;

  return (
    <div className="preview-stage-wrap">
      {tab === 1 ? (
        <div ref={stage} className={cls} {...handlers} data-testid="stage" data-scale={scale.toFixed(3)}>
          {img(after, 'after')}
          {img(before, 'before', holding ? undefined : `inset(0 ${Math.max(0, at.x + box.w - pos * view.w)}px 0 0)`)}
          <span className="stage-label left">{t('preview.before')}</span>
          <span className="stage-label right">{t('preview.after')}</span>
          <div
            className="divider"
            role="slider"
            tabIndex={0}
            aria-label={t('preview.divider')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(pos * 100)}
            style={{ left: `${pos * 100}%` }}
            data-testid="divider"
            onPointerDown={(e) => {
              e.stopPropagation();
              (e.target as HTMLElement).setPointerCapture(e.pointerId);
              reportDrag();
            }}
            onPointerMove={(e) => {
              if ((e.target as HTMLElement).hasPointerCapture(e.pointerId)) setFromPointer(e.clientX);
            }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowLeft') setPos((p) => Math.max(0, p - 0.05));
              if (e.key === 'ArrowRight') setPos((p) => Math.min(1, p + 0.05));
            }}
          >
            <span className="divider-knob" aria-hidden="true">
              ⇔
            </span>
          </div>
          {loading && <span className="spinner stage-spinner" aria-label={t('loading')} />}
          {navigator}
        </div>
      ) : (
        <div className="side-by-side">
          <figure>
            <div ref={stage} className={`${cls} half`} {...handlers}>
              {img(before, 'before')}
            </div>
            <figcaption>{t('preview.before')}</figcaption>
          </figure>
          <figure>
            <div className={`${cls} half`} {...handlers} data-testid="stage" data-scale={scale.toFixed(3)}>
              {img(after, 'after')}
              {holding && img(before, 'before', undefined, 'img-held')}
              {loading && <span className="spinner stage-spinner" aria-label={t('loading')} />}
              {navigator}
            </div>
            <figcaption>{t('preview.after')}</figcaption>
          </figure>
        </div>
      )}
      {holdButton && after && (
        <button
          type="button"
          className="hold-original"
          aria-pressed={holding}
          data-testid="hold-original"
          data-showing={holding ? 'original' : 'result'}
          onPointerDown={(e) => {
            e.currentTarget.setPointerCapture?.(e.pointerId);
            setHolding(true);
          }}
          onPointerUp={() => setHolding(false)}
          onPointerCancel={() => setHolding(false)}
          onLostPointerCapture={() => setHolding(false)}
          onContextMenu={(e) => e.preventDefault()}
        >
          {holding ? tp('showingOriginal') : tp('holdToCompare')}
        </button>
      )}
    </div>
  );
}

function Thumb({ up }: { up: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" style={up ? undefined : { transform: 'rotate(180deg)' }}>
      <path d="M7 10v11H3V10h4zm0 0l4-8a3 3 0 013 3v4h6a2 2 0 012 2.3l-1.4 8A2 2 0 0118.6 21H7" />
    </svg>
  );
}
