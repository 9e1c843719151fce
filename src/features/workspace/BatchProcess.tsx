/** The batch-process screen: tabs, view toggle, selection counter, upload area, works list, right panel. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isMedium, MEDIUM_PRESETS, type ModuleName, type PresetName } from '../../shared/domain/modules.js';
import { limitsFor, upsellFor } from '../../shared/domain/plans.js';
import { worksInTab, type WorksTab } from '../../shared/domain/tabs.js';
import { AdBanner } from '../../components/AdBanner.js';
import { L } from '../../app/lang.js';
import { dialogs } from '../../stores/dialogs.js';
import { usePanel } from '../../stores/panel.js';
import { useUser } from '../../stores/user.js';
import { useWorks } from '../../stores/works.js';
import { installGuestFirstUse } from './firstUse.js';
import { MobileActionBar } from './MobileActionBar.js';
import { RightPanel } from './RightPanel.js';
import { useResizeNotice } from './sizeNote.js';
import { DropOverlay, UploadArea } from './UploadArea.js';
import { Icon } from './WorkCard.js';
import { WorksList } from './WorksList.js';

const TABS: WorksTab[] = ['uploaded', 'processing', 'processed'];

export interface Preselect {
  module?: ModuleName;
  preset?: PresetName;
}

export function BatchProcess({ preselect }: { preselect?: Preselect }) {
  const { t } = useTranslation('workspace');
  const [params] = useSearchParams();
  const { tab, setTab, viewMode, setViewMode, works, successCount } = useWorks();
  const level = useUser((s) => s.level);
  const panel = usePanel();
  const [uploadOpen, setUploadOpen] = useState(true);
  const limit = limitsFor(level).batch;
  const upsell = upsellFor(level);
  const selected = works.filter((w) => w.selected).length;
  const workType = panel.tab === 'feature' ? panel.feature.config.module : 'workflow';

  useEffect(() => installGuestFirstUse(), []);
  useResizeNotice();

  // Spec §2: ?medium=<preset> opens the workflow tab with that preset; feature pages preselect their feature.
  const medium = params.get('medium');
  useEffect(() => {
    const preset = isMedium(medium) ? MEDIUM_PRESETS[medium] : undefined;
    // An unknown ?medium= is said, not silently read as the default feature; nothing counts as chosen.
    if (medium && !preset) dialogs.toast(t('unknownMedium', { medium: medium.slice(0, 40) }), 'info');
    if (preset) usePanel.getState().usePreset(preset);
    else if (preselect?.preset) usePanel.getState().usePreset(preselect.preset);
    else if (preselect?.module) {
      usePanel.getState().setTab('feature');
      usePanel.getState().setFeatureModule(preselect.module);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [medium, preselect?.module, preselect?.preset]);

  const onContinue = () => {
    if (selected === 0) {
      // Nothing uploaded yet, or nothing ready yet, is not "select at least 1 option".
      const uploaded = worksInTab(works, 'uploaded').filter(
        (w) => w.status !== 'uploadFailed' && w.status !== 'imageTooLarge',
      );
      const message =
        uploaded.length === 0
          ? t('continueNothingUploaded')
          : uploaded.some((w) => w.status === 'ready')
            ? t('selectAtLeastOne')
            : t('continueStillUploading');
      dialogs.open({ kind: 'message', message, tone: 'warning' });
      return;
    }
    setUploadOpen(false);
    document.getElementById('ppanel')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  return (
    <div className="workspace" data-testid="workspace">
      <DropOverlay workType={workType} />
      {/* Each plan sees only what it can still gain: nothing for Pro, Pro's extras for Basic. */}
      {upsell !== 'none' && (
        <AdBanner id="workspace-pro">
          <strong>{t('banner.title')}</strong>{' '}
          {upsell === 'pro'
            ? t('banner.textBasic', { batch: limitsFor('pro').batch, mp: limitsFor('pro').maxMegapixels })
            : t('banner.text')}{' '}
          <L to="/pricing/?source=banner&medium=workspace_top">{t('banner.cta')}</L>
        </AdBanner>
      )}
      <div className="ws-grid">
        <section className="ws-main" aria-label={t('title')}>
          <div className="ws-toolbar">
            <div className="tabs" role="tablist" aria-label={t('title')}>
              {TABS.map((k) => {
                const count = worksInTab(works, k).length;
                return (
                  <button
                    key={k}
                    role="tab"
                    aria-selected={tab === k}
                    className="tab"
                    onClick={() => setTab(k)}
                    data-testid={`tab-${k}`}
                  >
                    {t(`tabs.${k}`)}
                    <span className="count">{count}</span>
                    {k === 'processed' && successCount > 0 && tab !== 'processed' && (
                      <span className="dot" aria-label={t('newResults', { count: successCount })}>
                        {successCount}
                      </span>
                    )}
                  </button>
                );
              })}
            </div>
            <div className="ws-tools">
              {/* What will be processed, out of the plan's limit: chosen on Uploaded only (Processed chooses
                  results to download, and counts those under its list). */}
              {tab === 'uploaded' && (
                <span className="selected-counter" data-testid="selected-counter" title={t('selectedTitle')}>
                  {selected}/{limit}
                </span>
              )}
              <div className="view-toggle" role="group" aria-label={t('view.label')}>
                <button
                  aria-pressed={viewMode === 'grid'}
                  aria-label={t('view.grid')}
                  onClick={() => setViewMode('grid')}
                  data-testid="view-grid"
                >
                  <Icon name="grid" />
                </button>
                <button
                  aria-pressed={viewMode === 'list'}
                  aria-label={t('view.list')}
                  onClick={() => setViewMode('list')}
                  data-testid="view-list"
                >
                  <Icon name="list" />
                </button>
              </div>
            </div>
          </div>
          {tab === 'uploaded' &&
            (uploadOpen ? (
              <UploadArea workType={workType} onContinue={onContinue} />
            ) : (
              <button className="btn btn-secondary btn-sm add-more" onClick={() => setUploadOpen(true)}>
                + {t('upload.more')}
              </button>
            ))}
          <WorksList tab={tab} />
        </section>
        <aside className="ws-side" aria-label={t('panel.label')}>
          {tab === 'uploaded' ? (
            <RightPanel />
          ) : (
            <div className="panel panel-info">
              <h2>{t(`side.${tab}`)}</h2>
              <p className="muted">{t(`sideText.${tab}`)}</p>
              <button className="btn btn-secondary btn-block" onClick={() => setTab('uploaded')}>
                {t('side.back')}
              </button>
            </div>
          )}
        </aside>
      </div>
      <MobileActionBar />
    </div>
  );
}
