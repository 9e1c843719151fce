/** The dialog stack: one place that opens and closes the dialogs of spec §8. */
import { create } from 'zustand';

export type Dialog =
  | { kind: 'confirm'; title: string; message: string; confirmLabel?: string; onConfirm: () => void }
  | { kind: 'message'; title?: string; message: string; tone?: 'warning' | 'error' | 'info' }
  | { kind: 'insufficientCredits' }
  | { kind: 'notEnoughPoints' }
  | { kind: 'tooManyFiles' }
  | { kind: 'saveWorkflow' }
  | { kind: 'upgrade'; source: string; medium: string; message: string }
  | { kind: 'preview'; cid: string }
  | { kind: 'compare' }
  | { kind: 'chooseFeature'; cid: string };

/** A button inside a toast (Preview / Download after a job, See plans after a resize). */
export interface ToastAction {
  label: string;
  onClick: () => void;
  testId?: string;
}

interface DialogEntry {
  id: number;
  dialog: Dialog;
}

interface DialogState {
  stack: DialogEntry[];
  open(d: Dialog): number;
  close(id: number): void;
  closeKind(kind: Dialog['kind']): void;
  /** Overlays for running downloads (single cannot be closed, bulk can). */
  downloading: null | 'single' | 'bulk';
  setDownloading(v: null | 'single' | 'bulk'): void;
  /** A short notice at the bottom of the screen. */
  toast: null | {
    id: number;
    text: string;
    tone: 'info' | 'error' | 'success';
    actions?: ToastAction[];
    testId?: string;
  };
  showToast(
    text: string,
    tone?: 'info' | 'error' | 'success',
    extra?: { actions?: ToastAction[]; testId?: string },
  ): void;
  hideToast(): void;
}

let nextId = 1;

export const useDialogs = create<DialogState>((set) => ({
  stack: [],
  open(dialog) {
    const id = nextId++;
    // A dialog takes the user's attention: a toast shown before it (the "ready" moment) would only cover it.
    set((s) => ({ stack: [...s.stack, { id, dialog }], toast: null }));
    return id;
  },
  close(id) {
    set((s) => ({ stack: s.stack.filter((e) => e.id !== id) }));
  },
  closeKind(kind) {
    set((s) => ({ stack: s.stack.filter((e) => e.dialog.kind !== kind) }));
  },
  downloading: null,
  setDownloading(v) {
    set({ downloading: v });
  },
  toast: null,
  showToast(text, tone = 'info', extra) {
    const id = nextId++;
    set({ toast: { id, text, tone, ...extra } });
    // A toast with buttons stays long enough to be used.
    setTimeout(() => set((s) => (s.toast?.id === id ? { toast: null } : s)), extra?.actions?.length ? 10000 : 4000);
  },
  hideToast() {
    set({ toast: null });
  },
}));

export const dialogs = {
  open: (d: Dialog) => useDialogs.getState().open(d),
  toast: (text: string, tone?: 'info' | 'error' | 'success', extra?: { actions?: ToastAction[]; testId?: string }) =>
    useDialogs.getState().showToast(text, tone, extra),
};
