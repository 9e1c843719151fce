/** The draggable thumbnail window (304x190 box) that pans a 1:1 image; mover sized to the visible part. */
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { PREVIEW_MOVER_DEFAULT, PREVIEW_THUMB_BOX } from '../../shared/domain/constants.js';

interface Props {
  src?: string;
  natural: { w: number; h: number } | null;
  view: { w: number; h: number };
  offset: { x: number; y: number };
  onPan(offset: { x: number; y: number }): void;
  onDragStart?: () => void;
}

/** Where the image sits inside the 304x190 box (contain) and the px→thumb ratio. */
export function thumbLayout(natural: { w: number; h: number }) {
  const ratio = Math.min(PREVIEW_THUMB_BOX.width / natural.w, PREVIEW_THUMB_BOX.height / natural.h);
  const w = natural.w * ratio;
  const h = natural.h * ratio;
  return { ratio, w, h, left: (PREVIEW_THUMB_BOX.width - w) / 2, top: (PREVIEW_THUMB_BOX.height - h) / 2 };
}

/** Clamps a pan offset so the image always covers the view where it can. */
export function clampOffset(
  o: { x: number; y: number },
  natural: { w: number; h: number },
  view: { w: number; h: number },
) {
  const minX = Math.min(0, view.w - natural.w);
  const minY = Math.min(0, view.h - natural.h);
  const cx = natural.w < view.w ? (view.w - natural.w) / 2 : Math.max(minX, Math.min(0, o.x));
  const cy = natural.h < view.h ? (view.h - natural.h) / 2 : Math.max(minY, Math.min(0, o.y));
  return { x: cx, y: cy };
}

export function Navigator({ src, natural, view, offset, onPan, onDragStart }: Props) {
  const { t } = useTranslation('workspace');
  const drag = useRef<{ x: number; y: number; ox: number; oy: number } | null>(null);
  const lay = natural ? thumbLayout(natural) : null;
  const mover =
    lay && natural
      ? {
          w: Math.min(lay.w, view.w * lay.ratio),
          h: Math.min(lay.h, view.h * lay.ratio),
          left: lay.left + -offset.x * lay.ratio,
          top: lay.top + -offset.y * lay.ratio,
        }
      : {
          w: PREVIEW_MOVER_DEFAULT.width,
          h: PREVIEW_MOVER_DEFAULT.height,
          left: (PREVIEW_THUMB_BOX.width - PREVIEW_MOVER_DEFAULT.width) / 2,
          top: (PREVIEW_THUMB_BOX.height - PREVIEW_MOVER_DEFAULT.height) / 2,
        };

  const move = (dx: number, dy: number, base: { x: number; y: number }) => {
    if (!lay || !natural) return;
    onPan(clampOffset({ x: base.x - dx / lay.ratio, y: base.y - dy / lay.ratio }, natural, view));
  };

  return (
    <div
      className="navigator"
      style={{ width: PREVIEW_THUMB_BOX.width, height: PREVIEW_THUMB_BOX.height }}
      data-testid="navigator"
      onPointerDown={(e) => e.stopPropagation()}
    >
      {src && lay && (
        <img src={src} alt="" style={{ left: lay.left, top: lay.top, width: lay.w, height: lay.h }} draggable={false} />
      )}
      <div
        className="mover"
        role="slider"
        tabIndex={0}
        aria-label={t('preview.pan')}
        aria-valuenow={Math.round(-offset.x)}
        data-testid="mover"
        style={{ width: mover.w, height: mover.h, left: mover.left, top: mover.top }}
        onPointerDown={(e) => {
          // The stage under it pans and pinches on its own: the mover's drag is the mover's.
          e.stopPropagation();
          (e.target as HTMLElement).setPointerCapture(e.pointerId);
          drag.current = { x: e.clientX, y: e.clientY, ox: offset.x, oy: offset.y };
          onDragStart?.();
        }}
        onPointerMove={(e) => {
          if (!drag.current) return;
          move(e.clientX - drag.current.x, e.clientY - drag.current.y, { x: drag.current.ox, y: drag.current.oy });
        }}
        onPointerUp={() => (drag.current = null)}
        onKeyDown={(e) => {
          const step = 10;
          const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
          if (d) {
            e.preventDefault();
            move(d[0], d[1], offset);
          }
        }}
      />
    </div>
  );
}
