/** Simple in-browser tools: crop (aspect), resize, rotate, flip — canvas only, nothing leaves the device. */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from './usePageTitle.js';

type Tool = 'cropper' | 'resizer' | 'rotator' | 'flip';
const TOOL_OF: Record<string, Tool> = { '/image-cropper/': 'cropper', '/image-resizer/': 'resizer', '/image-rotator/': 'rotator', '/flip-image/': 'flip' };
const ASPECTS = [1, 4 / 3, 16 / 9, 3 / 4] as const;
const ASPECT_LABEL = ['1:1', '4:3', '16:9', '3:4'];

export function ToolPage({ path }: { path: string }) {
  const tool = TOOL_OF[path];
  const { t } = useTranslation('site');
  usePageTitle(t(`tools.${tool}.title`));
  const [img, setImg] = useState<HTMLImageElement | null>(null);
  const [name, setName] = useState('image.png');
  const [angle, setAngle] = useState(0);
  const [flipH, setFlipH] = useState(false);
  const [flipV, setFlipV] = useState(false);
  const [aspect, setAspect] = useState(0);
  const [width, setWidth] = useState(0);
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const c = canvas.current;
    if (!c || !img) return;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    let sx = 0, sy = 0, sw = img.naturalWidth, sh = img.naturalHeight;
    if (tool === 'cropper') {
      const a = ASPECTS[aspect];
      if (sw / sh > a) { const nw = Math.round(sh * a); sx = (sw - nw) / 2; sw = nw; } else { const nh = Math.round(sw / a); sy = (sh - nh) / 2; sh = nh; }
    }
    let dw = sw, dh = sh;
    if (tool === 'resizer' && width > 0) { dw = width; dh = Math.round((sh * width) / sw); }
    const turned = tool === 'rotator' && angle % 180 !== 0;
    c.width = turned ? dh : dw;
    c.height = turned ? dw : dh;
    ctx.save();
    ctx.translate(c.width / 2, c.height / 2);
    if (tool === 'rotator') ctx.rotate((angle * Math.PI) / 180);
    if (tool === 'flip') ctx.scale(flipH ? -1 : 1, flipV ? -1 : 1);
    ctx.drawImage(img, sx, sy, sw, sh, -dw / 2, -dh / 2, dw, dh);
    ctx.restore();
  }, [img, tool, angle, flipH, flipV, aspect, width]);

  const open = (file?: File) => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    const i = new Image();
    i.onload = () => {
      setImg(i);
      setWidth(i.naturalWidth);
    };
    i.src = url;
    setName(file.name.replace(/\.[^.]+$/, '') + '.png');
  };

  const download = () => {
    canvas.current?.toBlob((b) => {
      if (!b) return;
      const a = document.createElement('a');
      a.href = URL.createObjectURL(b);
      a.download = `${tool}-${name}`;
      a.click();
    }, 'image/png');
  };

  return (
    <div className="container page">
      <h1>{t(`tools.${tool}.title`)}</h1>
      <p className="lead">{t(`tools.${tool}.lead`)}</p>
      <div className="tool-bar">
        <label className="btn btn-secondary">
          {t('tools.open')}
          <input type="file" accept="image/jpeg,image/png" hidden onChange={(e) => open(e.target.files?.[0])} />
        </label>
        {img && tool === 'rotator' && (
          <>
            <button className="btn btn-ghost" onClick={() => setAngle((a) => (a + 270) % 360)}>↺ 90°</button>
            <button className="btn btn-ghost" onClick={() => setAngle((a) => (a + 90) % 360)}>↻ 90°</button>
          </>
        )}
        {img && tool === 'flip' && (
          <>
            <button className="btn btn-ghost" aria-pressed={flipH} onClick={() => setFlipH((v) => !v)}>{t('tools.flipH')}</button>
            <button className="btn btn-ghost" aria-pressed={flipV} onClick={() => setFlipV((v) => !v)}>{t('tools.flipV')}</button>
          </>
        )}
        {img && tool === 'cropper' && (
          <div className="segmented" role="radiogroup" aria-label={t('tools.aspect')}>
            {ASPECT_LABEL.map((l, i) => (
              <button key={l} role="radio" aria-checked={aspect === i} className={aspect === i ? 'on' : ''} onClick={() => setAspect(i)}>{l}</button>
            ))}
          </div>
        )}
        {img && tool === 'resizer' && (
          <label className="inline-field">
            {t('tools.width')}
            <input type="number" min={1} max={img.naturalWidth * 4} value={width} onChange={(e) => setWidth(Math.max(1, Number(e.target.value) || 1))} />
          </label>
        )}
        {img && (
          <button className="btn btn-primary" onClick={download}>{t('tools.download')}</button>
        )}
      </div>
      <div className="tool-canvas">{img ? <canvas ref={canvas} /> : <p className="muted">{t('tools.empty')}</p>}</div>
    </div>
  );
}
