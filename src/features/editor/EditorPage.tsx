/** Matting editor: opens the imgInfo hand-off, shows the cut-out on transparent or colour backgrounds, an erase/restore brush for its edge, downloads it. */
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorHandOff } from '../../shared/domain/work.js';
import { L } from '../../app/lang.js';
import { handleError } from '../../app/handleError.js';
import { EDITOR_HANDOFF_KEY } from '../workspace/WorkCard.js';
import { usePageTitle } from '../../pages/usePageTitle.js';
import { dab, strokePoints, toImagePoint, type BrushTool } from './brush.js';

const SWATCHES = ['transparent', '#ffffff', '#000000', '#e0e7ff', '#fde68a', '#bbf7d0'] as const;

function readHandOff(): EditorHandOff | null {
  try {
    const raw = localStorage.getItem(EDITOR_HANDOFF_KEY);
    return raw ? (JSON.parse(raw) as EditorHandOff) : null;
  } catch {
    return null;
  }
}

export function EditorPage() {
  const { t } = useTranslation('site');
  const [info] = useState(readHandOff);
  const [bg, setBg] = useState<string>('transparent');
  const [cutout, setCutout] = useState<HTMLImageElement | null>(null);
  const [failed, setFailed] = useState(false);
  const [original, setOriginal] = useState<HTMLImageElement | null>(null);
  const [tool, setTool] = useState<BrushTool | null>(null);
  const [size, setSize] = useState(24);
  const [edits, setEdits] = useState(0);
  const canvas = useRef<HTMLCanvasElement>(null);
  // the cut-out being edited (the brush paints here); shown over the background on `canvas`
  const working = useRef<HTMLCanvasElement | null>(null);
  const last = useRef<{ x: number; y: number } | null>(null);
  usePageTitle(t('editor.title'));

  useEffect(() => {
    if (!info?.targetImg) return;
    const i = new Image();
    i.crossOrigin = 'use-credentials';
    i.onload = () => setCutout(i);
    i.onerror = () => setFailed(true);
    i.src = info.targetImg;
    // the photo before the cut: what Restore paints back
    if (info.originImg) {
      const o = new Image();
      o.crossOrigin = 'use-credentials';
      o.onload = () => setOriginal(o);
      o.src = info.originImg;
    }
  }, [info]);

  const resetWorking = () => {
    if (!cutout) return;
    const w = document.createElement('canvas');
    w.width = cutout.naturalWidth;
    w.height = cutout.naturalHeight;
    w.getContext('2d')?.drawImage(cutout, 0, 0);
    working.current = w;
    setEdits((n) => n + 1);
  };
  useEffect(resetWorking, [cutout]);

  useEffect(() => {
    const c = canvas.current;
    const w = working.current;
    if (!c || !cutout || !w) return;
    c.width = cutout.naturalWidth;
    c.height = cutout.naturalHeight;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, c.width, c.height);
    if (bg !== 'transparent') {
      ctx.fillStyle = bg;
      ctx.fillRect(0, 0, c.width, c.height);
    }
    ctx.drawImage(w, 0, 0);
  }, [cutout, bg, edits]);

  const paint = (e: ReactPointerEvent<HTMLCanvasElement>, first: boolean) => {
    const c = canvas.current;
    const ctx = working.current?.getContext('2d');
    if (!tool || !c || !ctx) return;
    const p = toImagePoint(e.clientX, e.clientY, c.getBoundingClientRect(), c.width, c.height);
    const from = first || !last.current ? p : last.current;
    for (const q of strokePoints(from, p, size)) dab(ctx, tool, original, q, size);
    last.current = p;
    setEdits((n) => n + 1);
  };

  const download = () => {
    if (!canvas.current || !info) return;
    try {
      canvas.current.toBlob((b) => {
        if (!b) return;
        const a = document.createElement('a');
        a.href = URL.createObjectURL(b);
        a.download = info.targetName;
        a.click();
      }, 'image/png');
    } catch (e) {
      handleError(e);
    }
  };

  if (!info) {
    return (
      <div className="container page center">
        <h1>{t('editor.title')}</h1>
        <p className="muted">{t('editor.empty')}</p>
        <L to="/remove-background/" className="btn btn-primary">
          {t('editor.start')}
        </L>
      </div>
    );
  }

  return (
    <div className="container page editor">
      <h1>{t('editor.title')}</h1>
      <p className="muted">{info.filename}</p>
      <div className="editor-grid">
        <div className="editor-stage checker" style={bg !== 'transparent' ? { background: bg } : undefined} data-testid="editor-stage">
          {failed ? (
            <p className="field-error">{t('editor.failed')}</p>
          ) : cutout ? (
            <canvas
              ref={canvas}
              className={tool ? 'brushing' : undefined}
              data-testid="editor-canvas"
              onPointerDown={(e) => {
                if (!tool) return;
                e.currentTarget.setPointerCapture(e.pointerId);
                paint(e, true);
              }}
              onPointerMove={(e) => {
                if (tool && e.buttons) paint(e, false);
              }}
              onPointerUp={() => {
                last.current = null;
              }}
            />
          ) : (
            <span className="spinner" />
          )}
        </div>
        <div className="panel">
          <h2 className="h3">{t('editor.background')}</h2>
          <div className="swatches" role="radiogroup" aria-label={t('editor.background')}>
            {SWATCHES.map((s) => (
              <button key={s} role="radio" aria-checked={bg === s} aria-label={s === 'transparent' ? t('editor.transparent') : s} className={`swatch ${s === 'transparent' ? 'checker' : ''} ${bg === s ? 'on' : ''}`} style={s !== 'transparent' ? { background: s } : undefined} onClick={() => setBg(s)} />
            ))}
            <label className="swatch custom" aria-label={t('editor.custom')}>
              <input type="color" value={bg.startsWith('#') ? bg : '#ffffff'} onChange={(e) => setBg(e.target.value)} />
            </label>
          </div>
          <h2 className="h3">{t('editor.tool')}</h2>
          <div className="segmented" role="radiogroup" aria-label={t('editor.tool')}>
            {([null, 'erase', 'restore'] as const).map((k) => (
              <button key={k ?? 'none'} role="radio" aria-checked={tool === k} className={tool === k ? 'on' : ''} disabled={k === 'restore' && !original} onClick={() => setTool(k)} data-testid={`brush-${k ?? 'none'}`}>
                {t(k === null ? 'editor.toolNone' : k === 'erase' ? 'editor.erase' : 'editor.restore')}
              </button>
            ))}
          </div>
          <label className="small">
            {t('editor.brushSize', { size })}
            <input type="range" min={4} max={120} value={size} onChange={(e) => setSize(Number(e.target.value))} data-testid="brush-size" style={{ width: '100%' }} />
          </label>
          <p className="muted small">{t('editor.brushHint')}</p>
          <button className="btn btn-secondary btn-sm" onClick={resetWorking} disabled={!cutout} data-testid="brush-reset">
            {t('editor.reset')}
          </button>
          <button className="btn btn-primary btn-block" onClick={download} disabled={!cutout} data-testid="editor-download">
            {t('editor.download')}
          </button>
        </div>
      </div>
    </div>
  );
}
