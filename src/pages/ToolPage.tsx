/** Simple in-browser tools: crop (a crop box), resize, rotate, flip — done in the image worker, nothing leaves the device. */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { editImage, type EditOp } from '../worker-bridge/index.js';
import { Cropper } from '../features/editor/Cropper.js';
import { stemOf } from '../shared/domain/filename.js';
import { usePageTitle } from './usePageTitle.js';

type Tool = 'cropper' | 'resizer' | 'rotator' | 'flip';
const TOOL_OF: Record<string, Tool> = {
  '/image-cropper/': 'cropper',
  '/image-resizer/': 'resizer',
  '/image-rotator/': 'rotator',
  '/flip-image/': 'flip',
};
/** Drawing with no flip axis is the identity: used to show (and measure) the opened image as it is. */
const AS_IS: EditOp = { kind: 'flip', horizontal: false, vertical: false };
const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

interface Output {
  url: string;
  blob: Blob;
  width: number;
  height: number;
  runtime: 'worker' | 'main';
}

function opFor(tool: Tool, s: { angle: number; flipH: boolean; flipV: boolean; width: number }): EditOp {
  // The cropper shows the image as it is; its box is cut when downloading (features/editor/Cropper).
  if (tool === 'cropper') return AS_IS;
  if (tool === 'resizer') return s.width > 0 ? { kind: 'resize', width: s.width } : AS_IS;
  if (tool === 'rotator')
    return s.angle === 90 || s.angle === 180 || s.angle === 270 ? { kind: 'rotate', angle: s.angle } : AS_IS;
  return { kind: 'flip', horizontal: s.flipH, vertical: s.flipV };
}

export function ToolPage({ path }: { path: string }) {
  const tool = TOOL_OF[path];
  const { t } = useTranslation('site');
  usePageTitle(t(`tools.${tool}.title`));
  const [file, setFile] = useState<File | null>(null);
  const [srcW, setSrcW] = useState(0);
  const [base, setBase] = useState('image');
  const [angle, setAngle] = useState(0);
  const [flipH, setFlipH] = useState(false);
  const [flipV, setFlipV] = useState(false);
  const [width, setWidth] = useState(0);
  const [out, setOut] = useState<Output | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const seq = useRef(0);

  const op = opFor(tool, { angle, flipH, flipV, width });
  const opKey = JSON.stringify(op);

  useEffect(() => {
    if (!file) return;
    // Only the newest request's answer is shown; older ones finishing late are dropped.
    const mine = ++seq.current;
    setBusy(true);
    editImage(file, JSON.parse(opKey) as EditOp).then(
      (r) => {
        if (mine !== seq.current) return;
        setFailed(false);
        setOut({
          url: URL.createObjectURL(r.blob),
          blob: r.blob,
          width: r.width,
          height: r.height,
          runtime: r.runtime,
        });
        setBusy(false);
      },
      () => {
        if (mine !== seq.current) return;
        setFailed(true);
        setBusy(false);
      },
    );
  }, [file, opKey]);

  // The previous result's URL is released once a newer one is shown (and on leaving the page).
  useEffect(() => {
    if (!out) return;
    return () => URL.revokeObjectURL(out.url);
  }, [out]);

  // The resizer's width starts at the image's own width, measured by the worker's first answer.
  useEffect(() => {
    if (tool === 'resizer' && out && width === 0) {
      setSrcW(out.width);
      setWidth(out.width);
    }
  }, [tool, out, width]);

  const open = (f?: File) => {
    if (!f) return;
    setOut(null);
    setFailed(false);
    setWidth(0);
    setSrcW(0);
    setBase(stemOf(f.name) || 'image');
    setFile(f);
  };

  const download = () => {
    if (!out) return;
    const a = document.createElement('a');
    const url = URL.createObjectURL(out.blob);
    a.href = url;
    a.download = `${base}.${EXT[out.blob.type] ?? 'jpg'}`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  const ready = !!file;
  return (
    <div className="container page">
      <h1>{t(`tools.${tool}.title`)}</h1>
      <p className="lead">{t(`tools.${tool}.lead`)}</p>
      <div className="tool-bar">
        <label className="btn btn-secondary">
          {t('tools.open')}
          <input type="file" accept="image/jpeg,image/png" hidden onChange={(e) => open(e.target.files?.[0])} />
        </label>
        {ready && tool === 'rotator' && (
          <>
            <button className="btn btn-ghost" onClick={() => setAngle((a) => (a + 270) % 360)}>
              ↺ 90°
            </button>
            <button className="btn btn-ghost" onClick={() => setAngle((a) => (a + 90) % 360)}>
              ↻ 90°
            </button>
          </>
        )}
        {ready && tool === 'flip' && (
          <>
            <button className="btn btn-ghost" aria-pressed={flipH} onClick={() => setFlipH((v) => !v)}>
              {t('tools.flipH')}
            </button>
            <button className="btn btn-ghost" aria-pressed={flipV} onClick={() => setFlipV((v) => !v)}>
              {t('tools.flipV')}
            </button>
          </>
        )}
        {ready && tool === 'resizer' && srcW > 0 && (
          <label className="inline-field">
            {t('tools.width')}
            <input
              type="number"
              min={1}
              max={srcW * 4}
              value={width}
              onChange={(e) => setWidth(Math.min(srcW * 4, Math.max(1, Number(e.target.value) || 1)))}
            />
          </label>
        )}
        {out && tool !== 'cropper' && (
          <button className="btn btn-primary" onClick={download} disabled={busy}>
            {t('tools.downloadImage')}
          </button>
        )}
      </div>
      {tool === 'cropper' && file && out && !failed ? (
        <Cropper file={file} image={out} base={base} />
      ) : (
        <div className="tool-canvas" aria-busy={busy}>
          {failed ? (
            <p className="error" role="alert">
              {t('tools.failed')}
            </p>
          ) : out ? (
            <img
              src={out.url}
              width={out.width}
              height={out.height}
              alt={base}
              data-runtime={out.runtime}
              style={{ maxWidth: '100%', height: 'auto' }}
            />
          ) : (
            <p className="muted">{t('tools.empty')}</p>
          )}
        </div>
      )}
    </div>
  );
}
