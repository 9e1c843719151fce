/**
 * Touch-friendly before/after: the result is shown; pressing and holding the button (or the image)
 * shows the original until release. Pointer events with touch events as a fallback.
 */
import { useCallback, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

interface HoldToCompareProps {
  beforeSrc: string;
  afterSrc: string;
  alt?: string;
  className?: string;
  style?: CSSProperties;
}

const layer: CSSProperties = { position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'contain' };

function HoldToCompare({ beforeSrc, afterSrc, alt = '', className, style }: HoldToCompareProps) {
  const { t } = useTranslation('pwa');
  const [holding, setHolding] = useState(false);
  const press = useCallback(() => setHolding(true), []);
  const release = useCallback(() => setHolding(false), []);
  const handlers = {
    onPointerDown: (e: React.PointerEvent<HTMLElement>) => {
      // Keep receiving the release even if the finger slides off.
      e.currentTarget.setPointerCapture?.(e.pointerId);
      press();
    },
    onPointerUp: release,
    onPointerCancel: release,
    onLostPointerCapture: release,
    // Older touch stacks without pointer events.
    onTouchStart: press,
    onTouchEnd: release,
    onTouchCancel: release,
    onContextMenu: (e: React.MouseEvent) => e.preventDefault(),
  };
  return (
    <div
      className={className}
      style={{ position: 'relative', touchAction: 'none', userSelect: 'none', ...style }}
      data-testid="hold-to-compare"
      data-showing={holding ? 'original' : 'result'}
    >
      <div style={{ position: 'relative', width: '100%', height: '100%', minHeight: 120 }} {...handlers}>
        <img
          src={beforeSrc}
          alt={alt}
          draggable={false}
          style={{ ...layer, visibility: holding ? 'visible' : 'hidden' }}
          data-testid="htc-before"
        />
        <img
          src={afterSrc}
          alt={alt}
          draggable={false}
          style={{ ...layer, visibility: holding ? 'hidden' : 'visible' }}
          data-testid="htc-after"
        />
        <span className="htc-label" aria-live="polite" style={{ position: 'absolute', left: 8, top: 8 }}>
          {holding ? t('showingOriginal') : t('showingResult')}
        </span>
      </div>
      <button type="button" className="htc-button" aria-pressed={holding} style={{ touchAction: 'none' }} {...handlers}>
        {t('holdToCompare')}
      </button>
    </div>
  );
}

export default HoldToCompare;
