/** A dialog's button row (spec §8): the secondary button that dismisses it first, then the dialog's own action, if any. */
import type { ReactNode } from 'react';

interface Props {
  /** the dismiss button's text: Cancel, Not now, Later… */
  dismiss: string;
  onDismiss(): void;
  dismissTestId?: string;
  /** the dialog's own action buttons, after the dismiss button */
  children?: ReactNode;
}

export function ModalActions({ dismiss, onDismiss, dismissTestId, children }: Props) {
  return (
    <div className="modal-actions">
      {/* type="button": inside a form (save workflow) dismissing must not submit it */}
      <button type="button" className="btn btn-secondary" onClick={onDismiss} data-testid={dismissTestId}>
        {dismiss}
      </button>
      {children}
    </div>
  );
}
