/**
 * The preview's stage: fit-compare (a divider over before and after) or side by side, zoomed and
 * panned by usePanZoom, with the navigator when zoomed in and hold-to-compare on touch screens.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as endpoints from '../../api/endpoints.js';
import { BeforeAfterTags } from '../../components/BeforeAfterTags.js';
import { PREVIEW_THUMB_BOX } from '../../shared/domain/constants.js';
import { Navigator } from './Navigator.js';
import { detailCentreOf } from './detail.js';
import { usePanZoom, type Zoom } from './usePanZoom.js';

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

export function CompareStage({ before, after, tab, zoom, onZoom, natural, transparent, holdButton }: StageProps) {
  const { t } = useTranslation('workspace');
  const tp = useTranslation('pwa').t;
  const [holding, setHolding] = useState(false);
  const stage = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ w: 0, h: 0 });
  const [pos, setPos] = useState(0.5);
  const [loaded, setLoaded] = useState<{ before: boolean; after: boolean }>({ before: false, after: false });
  const dragged = useRef(false);

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
  const { scale, box, at, zoomed, offset, setOffset, wheelAt, handlers: panZoom } = usePanZoom({ natural, view, zoom, onZoom, onPanStart: () => reportDrag() });

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
      wheelAt(e.deltaY, under ? e.clientX - r.left : r.width / 2, under ? e.clientY - r.top : r.height / 2);
    };
    wrap.addEventListener('wheel', onWheel, { passive: false });
    return () => wrap.removeEventListener('wheel', onWheel);
  }, [tab, wheelAt]);

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
  // centre; once per dialog, and never over a position the user chose.
  const focused = useRef(false);
  const focusDetail = (el: HTMLImageElement) => {
    if (focused.current || zoom === 'fit' || offset || !zoomed) return;
    focused.current = true;
    const c = detailCentreOf(el, paneView, scale);
    if (c) setOffset({ x: paneView.w / 2 - c.x * box.w, y: paneView.h / 2 - c.y * box.h });
  };

  // Drag pans whenever the image is larger than the view (any zoom); two fingers pinch-zoom. The
  // divider drags itself.
  const handlers = {
    ...panZoom,
    onPointerDown: (e: React.PointerEvent) => {
      if ((e.target as HTMLElement).closest('.divider')) return;
      panZoom.onPointerDown(e);
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
          <BeforeAfterTags className="stage-label" before={t('preview.before')} after={t('preview.after')} />
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
