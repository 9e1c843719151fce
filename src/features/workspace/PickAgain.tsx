/**
 * "Choose the file again" on a work whose upload a reload or a closed tab cut off before anything of
 * it reached the server (src/db loadWorks, 'upload:interrupted'): the picked file takes the card's
 * place as a new upload of the same feature; the same file resumes from what this device kept of it
 * (the upload pipeline finds it by name, size and date).
 */
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Work } from '../../shared/domain/work.js';
import { useWorks } from '../../stores/works.js';
import { handleFiles } from './UploadArea.js';

export function PickAgain({ work }: { work: Work }) {
  const { t } = useTranslation('upload');
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button className="btn small pick-again" onClick={() => input.current?.click()} data-testid="pick-again">
        {t('pickAgain')}
      </button>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png,.jpg,.jpeg,.png"
        hidden
        data-testid="pick-again-input"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])].slice(0, 1);
          e.target.value = '';
          if (files.length === 0) return;
          // the interrupted card goes first: it would count against the plan's works of this feature
          useWorks.getState().remove([work.cid]);
          void handleFiles(files, work.workType);
        }}
      />
    </>
  );
}
