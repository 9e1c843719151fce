/**
 * Matting editor: opens the imgInfo hand-off, shows the cut-out on transparent or colour backgrounds, an
 * erase/restore brush for its edge, downloads it. State: useCutoutEditor.ts; the side panel: EditorPanel.tsx.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorHandOff } from '../../shared/domain/work.js';
import { L } from '../../app/lang.js';
import { handleError } from '../../app/handleError.js';
import { EDITOR_HANDOFF_KEY } from '../workspace/WorkCard.js';
import { usePageTitle } from '../../pages/usePageTitle.js';
import type { BrushTool } from './brush.js';
import { EditorPanel } from './EditorPanel.js';
import { useCutoutEditor, useHandOffImages } from './useCutoutEditor.js';

function readHandOff(): EditorHandOff | null {
  try {
    const raw = localStorage.getItem(EDITOR_HANDOFF_KEY);
    return raw ? (JSON.parse(raw) as EditorHandOff) : null;
  } catch {
    return null;
  }
}

/** Saves the canvas as the hand-off's PNG file name. */
function downloadCanvas(canvas: HTMLCanvasElement | null, name: string): void {
  if (!canvas) return;
  try {
    canvas.toBlob((b) => {
      if (!b) return;
      const a = document.createElement('a');
      a.href = URL.createObjectURL(b);
      a.download = name;
      a.click();
    }, 'image/png');
  } catch (e) {
    handleError(e);
  }
}

export function EditorPage() {
  const { t } = useTranslation('site');
  const [info] = useState(readHandOff);
  const [bg, setBg] = useState<string>('transparent');
  const [tool, setTool] = useState<BrushTool | null>(null);
  const [size, setSize] = useState(24);
  const { cutout, original, failed } = useHandOffImages(info);
  const editor = useCutoutEditor(cutout, original, bg, tool, size);
  usePageTitle(t('editor.title'));

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
        <div
          className="editor-stage checker"
          style={bg !== 'transparent' ? { background: bg } : undefined}
          data-testid="editor-stage"
        >
          {failed ? (
            <p className="field-error">{t('editor.failed')}</p>
          ) : cutout ? (
            <canvas
              ref={editor.canvas}
              className={tool ? 'brushing' : undefined}
              data-testid="editor-canvas"
              onPointerDown={(e) => {
                if (!tool) return;
                e.currentTarget.setPointerCapture(e.pointerId);
                editor.paint(e, true);
              }}
              onPointerMove={(e) => {
                if (tool && e.buttons) editor.paint(e, false);
              }}
              onPointerUp={editor.lift}
            />
          ) : (
            <span className="spinner" />
          )}
        </div>
        <EditorPanel
          bg={bg}
          onBg={setBg}
          tool={tool}
          onTool={setTool}
          canRestore={!!original}
          size={size}
          onSize={setSize}
          ready={!!cutout}
          onReset={editor.reset}
          onDownload={() => downloadCanvas(editor.canvas.current, info.targetName)}
        />
      </div>
    </div>
  );
}
