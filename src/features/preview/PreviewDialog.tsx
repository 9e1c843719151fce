/**
 * Before/after preview (spec §2, §4): info, download, fit-compare / side-by-side, 1:1 pan with navigator.
 * Its parts are previewParts.tsx (info, controls, touch hold, rating foot); the stage is CompareStage.
 */
import { useState } from 'react';
import { jobScale, previewTooLarge, resultSize } from '../../shared/domain/resultSize.js';
import { Modal } from '../../components/Modal.js';
import { useUser } from '../../stores/user.js';
import { useWorks } from '../../stores/works.js';
import { previewUrls } from '../workspace/actions.js';
import { operationLabel } from '../workspace/operationLabel.js';
import { EnlargeNotice } from '../workspace/enlargeNotice.js';
import { CompareStage } from './CompareStage.js';
import {
  PreviewControls,
  PreviewFoot,
  PreviewInfo,
  PreviewTooLarge,
  TouchHoldStage,
  useStagedReveal,
} from './previewParts.js';
import type { Zoom } from './usePanZoom.js';

const isTouch = () =>
  typeof window !== 'undefined' && (window.matchMedia?.('(pointer: coarse)').matches || 'ontouchstart' in window);

/** 1 = fit-compare, 2 = side-by-side (spec §2); enlarge, sharpen, denoise open side-by-side. */
export function defaultCompareTab(operation: string | undefined): 1 | 2 {
  return operation === 'enlarge' || operation === 'sharpen' || operation === 'denoise' ? 2 : 1;
}

export function PreviewDialog({ cid, onClose }: { cid: string; onClose(): void }) {
  const work = useWorks((s) => s.works.find((w) => w.cid === cid));
  const userToken = useUser((s) => s.userToken) ?? '';
  const level = useUser((s) => s.level);
  const [tab, setTab] = useState<1 | 2>(defaultCompareTab(work?.operation));
  // 'fit', or a scale of the output's pixels (1 = 1:1); enlarge opens at 1:1, where the added detail shows.
  const [zoom, setZoom] = useState<Zoom>(work?.operation === 'enlarge' ? 1 : 'fit');
  const { showBefore, showAfter } = useStagedReveal(cid, work?.operation);
  const [touch] = useState(isTouch);
  const tooLarge = work ? previewTooLarge(work.w, work.h, jobScale(work.params)) : false;

  if (!work) return null;
  const urls = previewUrls(work, userToken);
  // the result's real size once the server reported it (an old-photo result showed the input's)
  const out = resultSize(work);
  const before = showBefore ? urls.before : undefined;
  const after = showAfter && !tooLarge ? urls.after : undefined;

  return (
    <Modal title={work.filename} onClose={onClose} size="xl" testId="preview-dialog" className="preview-modal">
      <div className="preview-head">
        <PreviewInfo work={work} out={out} operation={operationLabel(work)} />
        <PreviewControls work={work} tab={tab} onTab={setTab} zoom={zoom} onZoom={setZoom} />
      </div>
      <EnlargeNotice work={work} testId="preview-enlarge-path" />
      {tooLarge ? (
        <PreviewTooLarge />
      ) : touch && tab === 1 && zoom === 'fit' ? (
        <TouchHoldStage before={before} after={after} checker={work.operation === 'matting'} />
      ) : (
        <CompareStage
          before={before}
          after={after}
          tab={work.operation === 'portrait' ? 1 : tab}
          zoom={zoom}
          onZoom={setZoom}
          natural={out}
          transparent={work.operation === 'matting'}
          holdButton
        />
      )}
      <PreviewFoot transId={work.transId} level={level} />
    </Modal>
  );
}
