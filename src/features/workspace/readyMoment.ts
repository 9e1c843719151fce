/**
 * The "ready" moment: when a job finishes the user sees it — the Processed tab (once nothing else is
 * running), the new result highlighted, and a toast with Preview / Download.
 */
import { useSyncExternalStore } from 'react';
import type { Work } from '../../shared/domain/work.js';
import { i18n } from '../../i18n/index.js';
import { dialogs } from '../../stores/dialogs.js';
import { useUser } from '../../stores/user.js';
import { useWorks } from '../../stores/works.js';
import { downloadWork } from './actions.js';

let highlighted: string | null = null;
const subs = new Set<() => void>();
const setHighlighted = (cid: string | null) => {
  highlighted = cid;
  for (const fn of subs) fn();
};

/** The cid of the result just finished (the card shows it highlighted until another one finishes). */
export function useHighlighted(): string | null {
  return useSyncExternalStore(
    (cb) => {
      subs.add(cb);
      return () => subs.delete(cb);
    },
    () => highlighted,
  );
}

/** Called for every finished work except the guest's first one (that opens its preview by itself). */
export function showReady(w: Work): void {
  const ws = useWorks.getState();
  setHighlighted(w.cid);
  const stillRunning = ws.works.some((x) => x.status === 'waiting' || x.status === 'processing');
  if (!stillRunning) ws.setTab('processed');
  // The highlighted card is brought into view (on phones the shorter list can leave the page at the footer).
  requestAnimationFrame(() =>
    document
      .querySelector('[data-testid="work-card"][data-new="true"]')
      ?.scrollIntoView({ block: 'center', behavior: 'smooth' }),
  );
  // Spec §9: a registered user's success text also says how many free credits remain.
  const user = useUser.getState();
  const text =
    i18n.t('workspace:ready.toast', { name: w.filename }) +
    (user.level === 'register' ? ` ${i18n.t('workspace:ready.freeLeft', { count: user.credits })}` : '');
  dialogs.toast(text, 'success', {
    testId: 'ready-toast',
    actions: [
      {
        label: i18n.t('workspace:actions.preview'),
        onClick: () => dialogs.open({ kind: 'preview', cid: w.cid }),
        testId: 'ready-preview',
      },
      {
        label: i18n.t('workspace:actions.download'),
        onClick: () => {
          const now = useWorks.getState().works.find((x) => x.cid === w.cid);
          if (now) void downloadWork(now);
        },
        testId: 'ready-download',
      },
    ],
  });
}
