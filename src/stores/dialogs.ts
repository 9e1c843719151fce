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
  | { kind: 'compare' };

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
  toast: null | { id: number; text: string; tone: 'info' | 'error' | 'success' };
  showToast(text: string, tone?: 'info' | 'error' | 'success'): void;
}

let nextId = 1;

export const useDialogs = create<DialogState>((set) => ({
  stack: [],
  open(dialog) {
    const id = nextId++;
    set((s) => ({ stack: [...s.stack, { id, dialog }] }));
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
  showToast(text, tone = 'info') {
    const id = nextId++;
    set({ toast: { id, text, tone } });
    setTimeout(() => set((s) => (s.toast?.id === id ? { toast: null } : s)), 4000);
  },
}));

export const dialogs = {
  open: (d: Dialog) => useDialogs.getState().open(d),
  toast: (text: string, tone?: 'info' | 'error' | 'success') => useDialogs.getState().showToast(text, tone),
};
