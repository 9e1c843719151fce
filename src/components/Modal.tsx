/** Accessible modal: labelled, Escape closes, focus moves in and returns, Tab stays inside. */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  title?: ReactNode;
  onClose?: () => void;
  children: ReactNode;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  testId?: string;
  className?: string;
}

/** Open modals, innermost last: Escape closes only the innermost (the preview, not the workspace under it). */
const openModals: object[] = [];

export function Modal({ title, onClose, children, size = 'sm', testId, className }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const me = {};
    openModals.push(me);
    const previous = document.activeElement as HTMLElement | null;
    const first = box.current?.querySelector<HTMLElement>('[autofocus], button, [href], input, select, textarea');
    (first ?? box.current)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (openModals.at(-1) !== me) return;
      if (e.key === 'Escape' && close.current) {
        e.stopPropagation();
        close.current();
      }
      if (e.key === 'Tab' && box.current) {
        const items = [
          ...box.current.querySelectorAll<HTMLElement>(
            'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])',
          ),
        ];
        if (items.length === 0) return;
        const firstEl = items[0];
        const lastEl = items[items.length - 1];
        if (e.shiftKey && document.activeElement === firstEl) {
          e.preventDefault();
          lastEl.focus();
        } else if (!e.shiftKey && document.activeElement === lastEl) {
          e.preventDefault();
          firstEl.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      openModals.splice(openModals.indexOf(me), 1);
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, []);

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose?.()}>
      <div
        ref={box}
        className={`modal modal-${size} ${className ?? ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={title ? id : undefined}
        tabIndex={-1}
        data-testid={testId}
      >
        {(title || onClose) && (
          <div className="modal-head">
            {title && <h2 id={id}>{title}</h2>}
            {onClose && (
              <button className="icon-btn" aria-label={t('close')} onClick={onClose} data-testid="modal-close">
                ✕
              </button>
            )}
          </div>
        )}
        <div className="modal-body">{children}</div>
      </div>
    </div>
  );
}
