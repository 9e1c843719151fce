/** Guest first-use sequence (spec §4): auto-select after 2 s, auto-start, Processing after 1 s, preview after 1 s. */
import {
  FIRST_FLAGS_COOKIE_DAYS,
  FIRST_VISIT_PREVIEW_DELAY_MS,
  GUEST_AUTO_SELECT_MS,
} from '../../shared/domain/constants.js';
import { COOKIE, getCookie, setCookie } from '../../lib/cookies.js';
import { dialogs } from '../../stores/dialogs.js';
import { usePanel } from '../../stores/panel.js';
import { onFinished } from '../../stores/processing.js';
import { onUploadReady } from '../../stores/uploads.js';
import { useUser } from '../../stores/user.js';
import { useWorks } from '../../stores/works.js';
import { startFirstUse } from './firstUseStart.js';
import { showReady } from './readyMoment.js';

let installed = false;
let firstCid: string | null = null;

export function installGuestFirstUse(): void {
  if (installed) return;
  installed = true;
  onUploadReady((cid) => {
    if (useUser.getState().logged || getCookie(COOKIE.isFirstVisit) || firstCid) return;
    firstCid = cid;
    setCookie(COOKIE.isFirstVisit, '1', FIRST_FLAGS_COOKIE_DAYS);
    setTimeout(() => {
      const works = useWorks.getState();
      const w = works.works.find((x) => x.cid === cid);
      if (!w || w.status !== 'ready') return;
      if (!w.selected) works.toggleSelect(cid, useUser.getState().level);
      // A credit is spent only on a feature someone chose: the page's own, or the user's. Otherwise ask.
      if (usePanel.getState().chosen) startFirstUse();
      else dialogs.open({ kind: 'chooseFeature', cid });
    }, GUEST_AUTO_SELECT_MS);
  });
  onFinished((w) => {
    if (w.cid !== firstCid) {
      showReady(w);
      return;
    }
    firstCid = null;
    useWorks.getState().setTab('processed');
    setTimeout(() => dialogs.open({ kind: 'preview', cid: w.cid }), FIRST_VISIT_PREVIEW_DELAY_MS);
  });
}
