/** The compare stage's parts: the before/after divider, the navigator in the result's pane, the hold-to-compare button. */
import { useTranslation } from 'react-i18next';
import { PREVIEW_THUMB_BOX } from '../../shared/domain/constants.js';
import { Navigator } from './Navigator.js';

type Size = { w: number; h: number };
type Point = { x: number; y: number };

/**
 * Where the navigator sits and how small it is: inside the part of the result's pane the image
 * covers (never over the letterbox or outside the picture), at most 40% of that part and never
 * more than half the spec's 304×190 box, so it does not hide what it navigates.
 */
export function navigatorPlacement(at: Point, box: Size, view: Size, thumb: { width: number; height: number }) {
  const left = Math.max(0, at.x);
  const top = Math.max(0, at.y);
  const right = Math.min(view.w, at.x + box.w);
  const bottom = Math.min(view.h, at.y + box.h);
  const w = Math.max(0, right - left);
  const h = Math.max(0, bottom - top);
  const k = Math.max(0.2, Math.min(0.5, (0.4 * w) / thumb.width, (0.4 * h) / thumb.height));
  return { left, top, width: w, height: h, scale: k };
}

/** The navigator (zoomed in only), placed inside the picture's visible part of the result's pane. */
export function StageNavigator({
  src,
  at,
  box,
  view,
  onPan,
  onDragStart,
}: {
  src?: string;
  at: Point;
  box: Size;
  view: Size;
  onPan(offset: Point): void;
  onDragStart(): void;
}) {
  const place = navigatorPlacement(at, box, view, PREVIEW_THUMB_BOX);
  return (
    <div
      className="navigator-anchor"
      style={{ left: place.left, top: place.top, width: place.width, height: place.height }}
      data-testid="navigator-anchor"
    >
      <div className="navigator-scale" style={{ transform: `scale(${place.scale})` }}>
        <Navigator
          src={src}
          natural={box.w ? box : null}
          view={view}
          offset={at}
          onPan={onPan}
          onDragStart={onDragStart}
        />
      </div>
    </div>
  );
}

/** The fit-compare divider: dragged (pointer capture) or moved by the arrow keys, 0…1 of the stage's width. */
export function Divider({
  pos,
  onPos,
  toPos,
  onDragStart,
}: {
  pos: number;
  onPos(update: (p: number) => number): void;
  toPos(clientX: number): number | null;
  onDragStart(): void;
}) {
  const { t } = useTranslation('workspace');
  return (
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
        onDragStart();
      }}
      onPointerMove={(e) => {
        if (!(e.target as HTMLElement).hasPointerCapture(e.pointerId)) return;
        const p = toPos(e.clientX);
        if (p !== null) onPos(() => p);
      }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft') onPos((p) => Math.max(0, p - 0.05));
        if (e.key === 'ArrowRight') onPos((p) => Math.min(1, p + 0.05));
      }}
    >
      <span className="divider-knob" aria-hidden="true">
        ⇔
      </span>
    </div>
  );
}

/** Press and hold (pointer, or Space / Enter held down) to see the original in place of the result, in every mode. */
export function HoldOriginalButton({ holding, onHold }: { holding: boolean; onHold(on: boolean): void }) {
  const { t } = useTranslation('pwa');
  return (
    <button
      type="button"
      className="hold-original"
      aria-pressed={holding}
      data-testid="hold-original"
      data-showing={holding ? 'original' : 'result'}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture?.(e.pointerId);
        onHold(true);
      }}
      onPointerUp={() => onHold(false)}
      onPointerCancel={() => onHold(false)}
      onLostPointerCapture={() => onHold(false)}
      onKeyDown={(e) => {
        if (e.key !== ' ' && e.key !== 'Enter') return;
        e.preventDefault();
        if (!e.repeat) onHold(true);
      }}
      onKeyUp={(e) => {
        if (e.key === ' ' || e.key === 'Enter') onHold(false);
      }}
      onBlur={() => onHold(false)}
      onContextMenu={(e) => e.preventDefault()}
    >
      {holding ? t('showingOriginal') : t('holdToCompare')}
    </button>
  );
}
