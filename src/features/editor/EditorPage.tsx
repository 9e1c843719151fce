/** Matting editor: opens the imgInfo hand-off, shows the cut-out on transparent or colour backgrounds, downloads it. */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorHandOff } from '../../domain/work.js';
import { L } from '../../app/lang.js';
import { handleError } from '../../app/handleError.js';
import { EDITOR_HANDOFF_KEY } from '../workspace/WorkCard.js';
import { usePageTitle } from '../../pages/usePageTitle.js';

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
  const canvas = useRef<HTMLCanvasElement>(null);
  usePageTitle(t('editor.title'));

  useEffect(() => {
    if (!info?.targetImg) return;
    const i = new Image();
    i.crossOrigin = 'use-credentials';
    i.onload = () => setCutout(i);
    i.onerror = () => setFailed(true);
    i.src = info.targetImg;
  }, [info]);

  useEffect(() => {
    const c = canvas.current;
    if (!c || !cutout) return;
    c.width = cutout.naturalWidth;
    c.height = cutout.naturalHeight;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, c.width, c.height);
    if (bg !== 'transparent') {
      ctx.fillStyle = bg;
      ctx.fillRect(0, 0, c.width, c.height);
    }
    ctx.drawImage(cutout, 0, 0);
  }, [cutout, bg]);

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
          {failed ? <p className="field-error">{t('editor.failed')}</p> : cutout ? <canvas ref={canvas} /> : <span className="spinner" />}
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
          <button className="btn btn-primary btn-block" onClick={download} disabled={!cutout} data-testid="editor-download">
            {t('editor.download')}
          </button>
        </div>
      </div>
    </div>
  );
}
