/**
 * The image cropper: a crop box over the opened image — drag inside to move it, drag a handle to
 * resize it, a ratio preset holds its shape, arrow keys nudge it (Alt+arrows resize, Shift for 10 px).
 * The worker cuts exactly that box when the image is downloaded; nothing is drawn on the UI thread.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { handleError } from '../../app/handleError.js';
import { editImage } from '../../worker-bridge/index.js';
import { boxForRatio, CROP_RATIOS, dragBox, HANDLES, nudgeBox, type Handle, type Rect } from './cropBox.js';

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

export interface CropperProps {
  file: File;
  /** the opened image as the worker decoded it */
  image: { url: string; width: number; height: number; runtime: string };
  base: string;
}

export function Cropper({ file, image, base }: CropperProps) {
  const { t } = useTranslation('site');
  const W = image.width;
  const H = image.height;
  const [ratioAt, setRatioAt] = useState(0);
  const ratio = CROP_RATIOS[ratioAt]!.ratio;
  const [box, setBox] = useState<Rect>(() => boxForRatio(W, H, ratio));
  const [busy, setBusy] = useState(false);
  const stage = useRef<HTMLDivElement>(null);
  const drag = useRef<{ handle: Handle; start: Rect; px: number; py: number; scale: number } | null>(null);

  // A new image starts with the whole picture (or the chosen ratio's largest box).
  useEffect(() => setBox(boxForRatio(W, H, CROP_RATIOS[ratioAt]!.ratio)), [W, H, image.url]); // eslint-disable-line react-hooks/exhaustive-deps

  const chooseRatio = (i: number) => {
    setRatioAt(i);
    const r = CROP_RATIOS[i]!.ratio;
    setBox(r === null ? box : boxForRatio(W, H, r));
  };

  const onPointerDown = (handle: Handle) => (e: PointerEvent<HTMLElement>) => {
    const rect = stage.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return;
    e.preventDefault();
    e.stopPropagation();
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
    drag.current = { handle, start: box, px: e.clientX, py: e.clientY, scale: W / rect.width };
  };
  const onPointerMove = (e: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d) return;
    setBox(dragBox(d.start, d.handle, (e.clientX - d.px) * d.scale, (e.clientY - d.py) * d.scale, ratio, W, H));
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next = nudgeBox(box, e.key, e.shiftKey ? 10 : 1, e.altKey, ratio, W, H);
    if (!next) return;
    e.preventDefault();
    setBox(next);
  };

  const download = async () => {
    setBusy(true);
    try {
      const r = await editImage(file, { kind: 'cropBox', ...box });
      const a = document.createElement('a');
      const url = URL.createObjectURL(r.blob);
      a.href = url;
      a.download = `${base}.${EXT[r.blob.type] ?? 'jpg'}`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (e) {
      handleError(e);
    } finally {
      setBusy(false);
    }
  };

  const pct = (v: number, of: number) => `${(v / of) * 100}%`;
  const place = { left: pct(box.x, W), top: pct(box.y, H), width: pct(box.w, W), height: pct(box.h, H) };
  return (
    <div className="cropper">
      <div className="tool-bar">
        <div className="segmented" role="radiogroup" aria-label={t('tools.aspect')}>
          {CROP_RATIOS.map((r, i) => (
            <button
              key={r.label}
              role="radio"
              aria-checked={ratioAt === i}
              className={ratioAt === i ? 'on' : ''}
              onClick={() => chooseRatio(i)}
            >
              {r.ratio === null ? t('tools.free') : r.label}
            </button>
          ))}
        </div>
        <span className="crop-size" data-testid="crop-size">
          {t('tools.cropSize', { w: box.w, h: box.h })}
        </span>
        <button className="btn btn-primary" onClick={() => void download()} disabled={busy} data-testid="crop-download">
          {t('tools.downloadImage')}
        </button>
      </div>
      <div className="tool-canvas" aria-busy={busy}>
        <div
          className="crop-stage"
          ref={stage}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          data-testid="crop-stage"
        >
          <img src={image.url} width={W} height={H} alt={base} data-runtime={image.runtime} draggable={false} />
          <div className="crop-shade" aria-hidden="true">
            <div style={place} />
          </div>
          <div
            className="crop-box"
            style={place}
            tabIndex={0}
            role="group"
            aria-label={t('tools.cropBox', { x: box.x, y: box.y, w: box.w, h: box.h })}
            onPointerDown={onPointerDown('move')}
            onKeyDown={onKeyDown}
            data-testid="crop-box"
            data-box={`${box.x},${box.y},${box.w},${box.h}`}
          >
            {HANDLES.map((h) => (
              <span
                key={h}
                className={`crop-handle h-${h}`}
                onPointerDown={onPointerDown(h)}
                data-handle={h}
                aria-hidden="true"
              />
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}
