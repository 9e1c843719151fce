/**
 * The workspace's action bar on narrow screens (CSS shows it below 980 px): Start for the selected
 * works, or Download for the result in view, always at the bottom of the screen, so a phone never
 * scrolls past the list and the settings to reach them. The panel's own buttons stay where they are.
 */
import { useTranslation } from 'react-i18next';
import { worksInTab } from '../../domain/tabs.js';
import type { Work } from '../../domain/work.js';
import { usePanel } from '../../stores/panel.js';
import { useWorks } from '../../stores/works.js';
import { downloadButtonClass, downloadWork } from './actions.js';
import { jobLabel } from './operationLabel.js';
import { useStartAction } from './RightPanel.js';

/** The result the bar downloads: the selected finished work, else the newest finished one. */
export function barDownloadTarget(works: Work[]): Work | undefined {
  const done = worksInTab(works, 'processed').filter((w) => w.status === 'finished');
  const newest = (list: Work[]) => [...list].sort((a, b) => (b.endTime ?? 0) - (a.endTime ?? 0))[0];
  return newest(done.filter((w) => w.selected)) ?? newest(done);
}

export function MobileActionBar() {
  const { t } = useTranslation('workspace');
  const tab = useWorks((s) => s.tab);
  const works = useWorks((s) => s.works);
  const panel = usePanel();
  const { start, selectedCount, disabled } = useStartAction();
  const job = panel.tab === 'feature' ? jobLabel(panel.feature.config.module) : t('panel.workflow');
  const target = tab === 'processed' ? barDownloadTarget(works) : undefined;
  const busy = worksInTab(works, 'processing').length;

  return (
    <div className="action-bar" role="region" aria-label={t('bar.label')} data-testid="action-bar">
      {tab === 'uploaded' && (
        <>
          <button type="button" className="btn btn-secondary action-bar-options" onClick={() => document.getElementById('ppanel')?.scrollIntoView({ behavior: 'smooth', block: 'start' })} data-testid="bar-options">
            {t('bar.options', { job })}
          </button>
          <button type="button" className="btn btn-primary" disabled={disabled} onClick={start} data-testid="bar-start">
            {t('start', { count: selectedCount })}
          </button>
        </>
      )}
      {tab === 'processing' && (
        <p className="action-bar-note" data-testid="bar-processing">
          {t('bar.processing', { count: busy })}
        </p>
      )}
      {tab === 'processed' && (
        <button type="button" className={`btn btn-primary${downloadButtonClass()}`} disabled={!target} onClick={() => target && void downloadWork(target)} data-testid="bar-download" title={target?.filename}>
          {t('actions.download')}
          {target && <span className="action-bar-name">{target.filename}</span>}
        </button>
      )}
    </div>
  );
}
