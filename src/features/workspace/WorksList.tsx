/** The works list of one tab: select-all, delete-all, cards, selected-count footer, empty states. */
import { useTranslation } from 'react-i18next';
import { selectAllChecked, worksInTab, type WorksTab } from '../../domain/rules.js';
import { useUser } from '../../stores/user.js';
import { useWorks } from '../../stores/works.js';
import { BULK_DOWNLOAD_ENABLED, confirmDelete, downloadAll } from './actions.js';
import { useHighlighted } from './readyMoment.js';
import { WorkCard } from './WorkCard.js';

export function WorksList({ tab }: { tab: WorksTab }) {
  const { t } = useTranslation('workspace');
  const works = useWorks((s) => s.works);
  const viewMode = useWorks((s) => s.viewMode);
  const selectAll = useWorks((s) => s.selectAll);
  const level = useUser((s) => s.level);
  const retentionDays = useUser((s) => s.retentionDays);
  const visible = worksInTab(works, tab);
  const selectable = visible.filter((w) => w.status === 'ready');
  const selected = visible.filter((w) => w.selected);
  const allChecked = selectAllChecked(visible, level);
  const fresh = useHighlighted();

  if (visible.length === 0) {
    return (
      <div className="empty" data-testid={`empty-${tab}`}>
        <svg className="empty-art" viewBox="0 0 120 90" aria-hidden="true">
          <rect x="10" y="14" width="100" height="66" rx="10" fill="var(--surface-2)" stroke="var(--line)" />
          <circle cx="42" cy="40" r="9" fill="var(--brand-soft)" />
          <path d="M18 72l26-22 16 13 14-10 28 19z" fill="var(--brand-soft-2)" />
        </svg>
        <p>{t(`empty.${tab}` as 'empty.uploaded')}</p>
      </div>
    );
  }

  return (
    <div className="works">
      <div className="works-bar">
        <label className="check-all">
          <input type="checkbox" checked={allChecked} disabled={selectable.length === 0} onChange={() => selectAll(tab, level)} data-testid="select-all" />
          {t('selectAll')}
        </label>
        <div className="works-bar-actions">
          {tab === 'processed' && BULK_DOWNLOAD_ENABLED && (
            <button className="btn btn-secondary btn-sm" onClick={() => void downloadAll(visible)}>
              {t('downloadAll')}
            </button>
          )}
          <button className="btn btn-ghost btn-sm danger" onClick={() => confirmDelete(visible)} data-testid="delete-all">
            {t('deleteAll')}
          </button>
        </div>
      </div>
      <ul className={`work-list mode-${viewMode}`} aria-label={t(`tabs.${tab}` as 'tabs.uploaded')}>
        {visible.map((w) => (
          <WorkCard key={w.cid} work={w} onDelete={(x) => confirmDelete([x])} highlighted={tab === 'processed' && w.cid === fresh} />
        ))}
      </ul>
      <div className="works-foot" aria-live="polite" data-testid="selected-footer">
        {t('selectedCount', { count: selected.length })}
      </div>
      {retentionDays !== undefined && (
        <p className="works-retention muted" data-testid="retention-note">
          {t('retentionNote', { count: retentionDays })}
        </p>
      )}
    </div>
  );
}
