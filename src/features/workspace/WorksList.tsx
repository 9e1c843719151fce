/** The works list of one tab: select-all, delete-all, cards, selected-count footer, empty states. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { selectAllChecked, selectAllMixed } from '../../shared/domain/selection.js';
import { worksInTab, type WorksTab } from '../../shared/domain/tabs.js';
import { useUser } from '../../stores/user.js';
import { useWorks } from '../../stores/works.js';
import { BULK_DOWNLOAD_ENABLED, confirmDelete, downloadAll, downloadSelected } from './actions.js';
import { useHighlighted } from './readyMoment.js';
import { WorkCard } from './WorkCard.js';
import { isTouchOnly } from './UploadArea.js';

export function WorksList({ tab }: { tab: WorksTab }) {
  const { t } = useTranslation('workspace');
  const works = useWorks((s) => s.works);
  const viewMode = useWorks((s) => s.viewMode);
  const selectAll = useWorks((s) => s.selectAll);
  const update = useWorks((s) => s.update);
  const level = useUser((s) => s.level);
  const retentionDays = useUser((s) => s.retentionDays);
  const visible = worksInTab(works, tab);
  const selectable = visible.filter((w) => w.status === 'ready');
  const selected = visible.filter((w) => w.selected);
  // Processed: finished results are chosen for "Download selected" (the work's `checked`, spec §3),
  // apart from the selection of ready works to process.
  const results = tab === 'processed' ? visible.filter((w) => w.status === 'finished') : [];
  const checked = results.filter((w) => w.checked);
  const [downloading, setDownloading] = useState<number | null>(null);
  const saveChosen = async () => {
    try {
      await downloadSelected(results, setDownloading);
    } finally {
      setDownloading(null);
    }
  };
  const allChecked =
    tab === 'processed' ? results.length > 0 && checked.length === results.length : selectAllChecked(visible);
  const mixed = tab === 'processed' ? checked.length > 0 && checked.length < results.length : selectAllMixed(visible);
  const onSelectAll = () => {
    if (tab !== 'processed') return selectAll(tab, level);
    const next = !allChecked;
    for (const w of results) if (!!w.checked !== next) update(w.cid, { checked: next });
  };
  const fresh = useHighlighted();

  // Each empty tab says what fits the situation: what is ready, what is still processing.
  const emptyText = (): string => {
    const ready = works.filter((w) => w.status === 'ready').length;
    const running = worksInTab(works, 'processing').length;
    if (tab === 'processing')
      return ready > 0 ? t('empty.processingReady', { count: ready }) : t('empty.processingNothing');
    if (tab === 'processed')
      return running > 0
        ? t('empty.processedWaiting', { count: running })
        : ready > 0
          ? t('empty.processedReady')
          : t('empty.processed');
    // A phone drops nothing: it says what a touch user does.
    return isTouchOnly() ? t('empty.uploadedTouch', { button: t('upload.browse') }) : t('empty.uploaded');
  };

  if (visible.length === 0) {
    return (
      <div className="empty" data-testid={`empty-${tab}`}>
        <svg className="empty-art" viewBox="0 0 120 90" aria-hidden="true">
          <rect x="10" y="14" width="100" height="66" rx="10" fill="var(--surface-2)" stroke="var(--line)" />
          <circle cx="42" cy="40" r="9" fill="var(--brand-soft)" />
          <path d="M18 72l26-22 16 13 14-10 28 19z" fill="var(--brand-soft-2)" />
        </svg>
        <p>{emptyText()}</p>
      </div>
    );
  }

  return (
    <div className="works">
      <div className="works-bar">
        <label className="check-all">
          <input
            type="checkbox"
            checked={allChecked}
            ref={(el) => {
              if (el) el.indeterminate = mixed;
            }}
            aria-checked={mixed ? 'mixed' : allChecked}
            disabled={(tab === 'processed' ? results : selectable).length === 0}
            onChange={onSelectAll}
            data-testid="select-all"
          />
          {t('selectAll')}
        </label>
        <div className="works-bar-actions">
          {tab === 'processed' && (
            <button
              className="btn btn-primary btn-sm"
              disabled={checked.length === 0 || downloading !== null}
              onClick={() => void saveChosen()}
              data-testid="download-selected"
            >
              {downloading !== null
                ? t('downloadingOf', { n: downloading, count: checked.length })
                : t('downloadSelected', { count: checked.length })}
            </button>
          )}
          {tab === 'processed' && BULK_DOWNLOAD_ENABLED && (
            <button className="btn btn-secondary btn-sm" onClick={() => void downloadAll(visible)}>
              {t('downloadAll')}
            </button>
          )}
          <button
            className="btn btn-ghost btn-sm danger"
            onClick={() => confirmDelete(visible)}
            data-testid="delete-all"
          >
            {t('deleteAll')}
          </button>
        </div>
      </div>
      <ul className={`work-list mode-${viewMode}`} aria-label={t(`tabs.${tab}`)}>
        {visible.map((w) => (
          <WorkCard
            key={w.cid}
            work={w}
            onDelete={(x) => confirmDelete([x])}
            highlighted={tab === 'processed' && w.cid === fresh}
          />
        ))}
      </ul>
      <div className="works-foot" aria-live="polite" data-testid="selected-footer">
        {t('selectedCount', { count: tab === 'processed' ? checked.length : selected.length })}
      </div>
      {retentionDays !== undefined && (
        <p className="works-retention muted" data-testid="retention-note">
          {t('retentionNote', { count: retentionDays })}
        </p>
      )}
    </div>
  );
}
