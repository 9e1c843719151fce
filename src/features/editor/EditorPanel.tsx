/** The background editor's side panel: background (transparent, swatches, a custom colour), the edge brush, its size, undo and download. */
import { useTranslation } from 'react-i18next';
import type { BrushTool } from './brush.js';

const SWATCHES = ['transparent', '#ffffff', '#000000', '#e0e7ff', '#fde68a', '#bbf7d0'] as const;

interface PanelProps {
  bg: string;
  onBg(bg: string): void;
  tool: BrushTool | null;
  onTool(tool: BrushTool | null): void;
  /** Restore needs the photo before the cut */
  canRestore: boolean;
  size: number;
  onSize(size: number): void;
  /** the cut-out is there to edit and download */
  ready: boolean;
  onReset(): void;
  onDownload(): void;
}

export function EditorPanel({
  bg,
  onBg,
  tool,
  onTool,
  canRestore,
  size,
  onSize,
  ready,
  onReset,
  onDownload,
}: PanelProps) {
  const { t } = useTranslation('site');
  return (
    <div className="panel">
      <h2 className="h3">{t('editor.background')}</h2>
      <div className="swatches" role="radiogroup" aria-label={t('editor.background')}>
        {SWATCHES.map((s) => (
          <button
            key={s}
            role="radio"
            aria-checked={bg === s}
            aria-label={s === 'transparent' ? t('editor.transparent') : s}
            className={`swatch ${s === 'transparent' ? 'checker' : ''} ${bg === s ? 'on' : ''}`}
            style={s !== 'transparent' ? { background: s } : undefined}
            onClick={() => onBg(s)}
          />
        ))}
        <label className="swatch custom" aria-label={t('editor.custom')}>
          <input type="color" value={bg.startsWith('#') ? bg : '#ffffff'} onChange={(e) => onBg(e.target.value)} />
        </label>
      </div>
      <h2 className="h3">{t('editor.tool')}</h2>
      <div className="segmented" role="radiogroup" aria-label={t('editor.tool')}>
        {([null, 'erase', 'restore'] as const).map((k) => (
          <button
            key={k ?? 'none'}
            role="radio"
            aria-checked={tool === k}
            className={tool === k ? 'on' : ''}
            disabled={k === 'restore' && !canRestore}
            onClick={() => onTool(k)}
            data-testid={`brush-${k ?? 'none'}`}
          >
            {t(k === null ? 'editor.toolNone' : k === 'erase' ? 'editor.erase' : 'editor.restore')}
          </button>
        ))}
      </div>
      <label className="small">
        {t('editor.brushSize', { size })}
        <input
          type="range"
          min={4}
          max={120}
          value={size}
          onChange={(e) => onSize(Number(e.target.value))}
          data-testid="brush-size"
          style={{ width: '100%' }}
        />
      </label>
      <p className="muted small">{t('editor.brushHint')}</p>
      <button className="btn btn-secondary btn-sm" onClick={onReset} disabled={!ready} data-testid="brush-reset">
        {t('editor.reset')}
      </button>
      <button
        className="btn btn-primary btn-block"
        onClick={onDownload}
        disabled={!ready}
        data-testid="editor-download"
      >
        {t('editor.download')}
      </button>
    </div>
  );
}
