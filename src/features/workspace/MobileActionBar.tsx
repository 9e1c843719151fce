/**
 * The workspace's action bar on narrow screens (CSS shows it below 980 px): Start for the selected
 * works, or Download for the result in view, always at the bottom of the screen, so a phone never
 * scrolls past the list and the settings to reach them. The panel's own buttons stay where they are.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { worksInTab } from '../../shared/domain/tabs.js';
import type { Work } from '../../shared/domain/work.js';
import { usePanel } from '../../stores/panel.js';
import { useWorks } from '../../stores/works.js';
import { downloadButtonClass, downloadSelected, downloadWork } from './actions.js';
import { jobLabel } from './operationLabel.js';
import { useStartAction } from './RightPanel.js';

/**
 * What the bar downloads on Processed: the results chosen for download when there are several
 * ("Download selected", one after another), else the one chosen, else the newest result.
 */
export function barDownloadTarget(works: Work[]): { chosen: Work[] } | { one: Work } | undefined {
  const done = worksInTab(works, 'processed').filter((w) => w.status === 'finished');
  const chosen = done.filter((w) => w.checked);
  if (chosen.length > 1) return { chosen };
  const newest = [...(chosen.length ? chosen : done)].sort((a, b) => (b.endTime ?? 0) - (a.endTime ?? 0))[0];
  return newest ? { one: newest } : undefined;
}

export function MobileActionBar() {
  const { t } = useTranslation('workspace');
  const tab = useWorks((s) => s.tab);
  const works = useWorks((s) => s.works);
  const panel = usePanel();
  const { start, selectedCount, disabled } = useStartAction();
  const job = panel.tab === 'feature' ? jobLabel(panel.feature.config.module) : t('panel.workflow');
  const setTab = useWorks((s) => s.setTab);
  const target = tab === 'processed' ? barDownloadTarget(works) : undefined;
  const busy = worksInTab(works, 'processing').length;
  const [downloading, setDownloading] = useState<number | null>(null);
  const saveChosen = async (chosen: Work[]) => {
    try {
      await downloadSelected(chosen, setDownloading);
    } finally {
      setDownloading(null);
    }
  };

  return (
    <div className="action-bar" role="region" aria-label={t('bar.label')} data-testid="action-bar">
      {tab === 'uploaded' && (
        <>
          <button
            type="button"
            className="btn btn-secondary action-bar-options"
            onClick={() => document.getElementById('ppanel')?.scrollIntoView({ behavior: 'smooth', block: 'start' })}
            data-testid="bar-options"
          >
            {t('bar.options', { job })}
          </button>
          <button type="button" className="btn btn-primary" disabled={disabled} onClick={start} data-testid="bar-start">
            {t('start', { count: selectedCount })}
          </button>
        </>
      )}
      {tab === 'processing' &&
        (busy > 0 ? (
          <p className="action-bar-note" data-testid="bar-processing">
            {t('bar.processing', { count: busy })}
          </p>
        ) : (
          // Nothing under way: not "0 images processing…", but the way back to the uploads.
          <button type="button" className="btn btn-secondary" onClick={() => setTab('uploaded')} data-testid="bar-back">
            {t('side.back')}
          </button>
        ))}
      {tab === 'processed' &&
        (target && 'chosen' in target ? (
          <button
            type="button"
            className={`btn btn-primary${downloadButtonClass()}`}
            disabled={downloading !== null}
            onClick={() => void saveChosen(target.chosen)}
            data-testid="bar-download-selected"
          >
            {downloading !== null
              ? t('downloadingOf', { n: downloading, count: target.chosen.length })
              : t('downloadSelected', { count: target.chosen.length })}
          </button>
        ) : (
          <button
            type="button"
            className={`btn btn-primary${downloadButtonClass()}`}
            disabled={!target}
            onClick={() => target && void downloadWork(target.one)}
            data-testid="bar-download"
            title={target?.one.filename}
          >
            {t('actions.download')}
            {target && <span className="action-bar-name">{target.one.filename}</span>}
          </button>
        ))}
    </div>
  );
}
