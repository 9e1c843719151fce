/**
 * The preview's stage: fit-compare (a divider over before and after) or side by side, zoomed and
 * panned by usePanZoom, with the navigator when zoomed in, and hold-to-compare: pressing and holding the
 * picture (a press that does not move: a move pans) or the hold button (pointer or keyboard) shows the
 * original in place of the result, and the badge says Before while it does.
 * Its parts: stageParts.tsx (divider, navigator, hold button), useStageView.ts (pane size, wheel zoom).
 */
import { useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import * as endpoints from '../../api/endpoints.js';
import { BeforeAfterTags } from '../../components/BeforeAfterTags.js';
import { detailCentreOf } from './detail.js';
import { Divider, HoldOriginalButton, StageNavigator } from './stageParts.js';
import { usePanZoom, type Zoom } from './usePanZoom.js';
import { usePaneSize, useWheelZoom } from './useStageView.js';

export { navigatorPlacement } from './stageParts.js';

interface StageProps {
  before?: string;
  after?: string;
  tab: 1 | 2;
  zoom: Zoom;
  onZoom(z: Zoom): void;
  natural: { w: number; h: number };
  /** the result has transparency (background removal): a checkerboard behind it, a neutral ground otherwise */
  transparent?: boolean;
  /** a press-and-hold button shows the original in place of the result, in every mode */
  holdButton?: boolean;
}

type Which = 'before' | 'after';

/** A press that moves farther than this (CSS pixels) is a pan, not a hold. */
const HOLD_MOVE_PX = 6;

export function CompareStage({ before, after, tab, zoom, onZoom, natural, transparent, holdButton }: StageProps) {
  const { t } = useTranslation('workspace');
  const [holding, setHolding] = useState(false);
  const stage = useRef<HTMLDivElement>(null);
  const view = usePaneSize(stage, tab);
  const [pos, setPos] = useState(0.5);
  const [loaded, setLoaded] = useState<Record<Which, boolean>>({ before: false, after: false });
  const dragged = useRef(false);
  const reportDrag = () => {
    if (dragged.current) return;
    dragged.current = true;
    endpoints.report('preview_drag', {});
  };
  const {
    scale,
    box,
    at,
    zoomed,
    offset,
    setOffset,
    wheelAt,
    handlers: panZoom,
  } = usePanZoom({ natural, view, zoom, onZoom, onPanStart: reportDrag });
  useWheelZoom(stage, tab, wheelAt);

  // Opened zoomed in (enlarge opens at 1:1): on the part of the picture with detail, not on a plain
  // centre; once per dialog, and never over a position the user chose.
  const focused = useRef(false);
  const focusDetail = (el: HTMLImageElement) => {
    if (focused.current || zoom === 'fit' || offset || !zoomed) return;
    focused.current = true;
    const c = detailCentreOf(el, view, scale);
    if (c) setOffset({ x: view.w / 2 - c.x * box.w, y: view.h / 2 - c.y * box.h });
  };

  const img = (src: string | undefined, which: Which, clip?: string, testId = `img-${which}`) =>
    src ? (
      <img
        src={src}
        alt={t(which === 'before' ? 'preview.before' : 'preview.after')}
        className={`stage-img ${loaded[which] ? 'loaded' : ''} ${transparent && which === 'after' ? 'checker' : ''}`}
        // Held: the result steps aside for the original (already loaded, so nothing flickers).
        style={
          {
            left: at.x,
            top: at.y,
            width: box.w,
            height: box.h,
            clipPath: clip,
            visibility: holding && which === 'after' ? 'hidden' : undefined,
          } satisfies CSSProperties
        }
        onLoad={(e) => {
          setLoaded((l) => ({ ...l, [which]: true }));
          if (which === 'after') focusDetail(e.currentTarget);
        }}
        draggable={false}
        data-testid={testId}
      />
    ) : null;

  // Drag pans whenever the image is larger than the view (any zoom); two fingers pinch-zoom. The divider
  // drags itself. A press on the picture shows the original until it is released or moves (a pan).
  const press = useRef<{ id: number; x: number; y: number } | null>(null);
  const release = () => {
    press.current = null;
    setHolding(false);
  };
  const handlers = {
    ...panZoom,
    onPointerDown: (e: React.PointerEvent) => {
      if ((e.target as HTMLElement).closest('.divider, .navigator, .hold-original')) return;
      if (e.button !== 0) return;
      panZoom.onPointerDown(e);
      if (press.current) return release(); // a second finger: a pinch
      press.current = { id: e.pointerId, x: e.clientX, y: e.clientY };
      setHolding(true);
    },
    onPointerMove: (e: React.PointerEvent) => {
      panZoom.onPointerMove(e);
      const p = press.current;
      if (p && p.id === e.pointerId && Math.hypot(e.clientX - p.x, e.clientY - p.y) > HOLD_MOVE_PX) release();
    },
    onPointerUp: (e: React.PointerEvent) => {
      panZoom.onPointerUp(e);
      release();
    },
    onPointerCancel: (e: React.PointerEvent) => {
      panZoom.onPointerCancel(e);
      release();
    },
    onContextMenu: (e: React.MouseEvent) => e.preventDefault(),
  };
  const toPos = (clientX: number) => {
    const r = stage.current?.getBoundingClientRect();
    return r ? Math.max(0, Math.min(1, (clientX - r.left) / r.width)) : null;
  };
  const spinner = !after || !loaded.after ? <span className="spinner stage-spinner" aria-label={t('loading')} /> : null;
  const navigator =
    zoom !== 'fit' ? (
      <StageNavigator src={after ?? before} at={at} box={box} view={view} onPan={setOffset} onDragStart={reportDrag} />
    ) : null;
  const cls = `preview-box stage ${zoomed ? 'is-zoomed' : ''} ${transparent ? '' : 'opaque'} ${holding ? 'is-holding' : ''}`;

  return (
    <div className="preview-stage-wrap">
      {tab === 1 ? (
        <div ref={stage} className={cls} {...handlers} data-testid="stage" data-scale={scale.toFixed(3)}>
          {img(after, 'after')}
          {img(before, 'before', holding ? undefined : `inset(0 ${Math.max(0, at.x + box.w - pos * view.w)}px 0 0)`)}
          {holding ? (
            <span className="stage-label left held" data-testid="stage-badge">
              {t('preview.before')}
            </span>
          ) : (
            <BeforeAfterTags className="stage-label" before={t('preview.before')} after={t('preview.after')} />
          )}
          <Divider pos={pos} onPos={setPos} toPos={toPos} onDragStart={reportDrag} />
          {spinner}
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
              {spinner}
              {navigator}
            </div>
            <figcaption data-testid="stage-badge">{t(holding ? 'preview.before' : 'preview.after')}</figcaption>
          </figure>
        </div>
      )}
      {holdButton && after && <HoldOriginalButton holding={holding} onHold={setHolding} />}
    </div>
  );
}
