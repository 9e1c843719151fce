/** Right panel of the Uploaded tab: feature / workflow tabs, step settings and the start button. */
import { useEffect, useMemo, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import * as endpoints from '../../api/endpoints.js';
import {
  canAddStep,
  chainError,
  entitlementError,
  FEATURE_MODULES,
  MEDIUM_PRESETS,
  type Medium,
  type ModuleName,
  type PresetName,
  type Step,
} from '../../shared/domain/modules.js';
import { WORKFLOW_FIRST_PAGE, WORKFLOW_PAGE_SIZE } from '../../shared/domain/constants.js';
import { isSubscriber, limitsFor } from '../../shared/domain/plans.js';
import { L } from '../../app/lang.js';
import { dialogs } from '../../stores/dialogs.js';
import { currentJobConfig, usePanel } from '../../stores/panel.js';
import { startProcessing } from '../../stores/processing.js';
import { useUser } from '../../stores/user.js';
import { useWorks } from '../../stores/works.js';
import { handleError } from '../../app/handleError.js';
import { chainText, entitlementText } from './ruleErrors.js';
import { isLockedModule, openUpgrade, StepSettings, type SelectedSize } from './StepSettings.js';
import { jobScale, outputTooLarge } from '../../shared/domain/resultSize.js';
import type { Work } from '../../shared/domain/work.js';
import { DeviceChoice } from './DeviceChoice.js';
import { StartEstimate } from './startEstimate.js';
import { TAB_SWITCH_AFTER_START_MS } from '../../shared/domain/constants.js';

/** Modules offered as features (colorize_pro is the Pro "best" mode of colorize). */

/**
 * Start for the selected works with the panel's feature or workflow: the panel's button and the mobile
 * action bar's use the same checks (selection, chain rule, entitlements, credits).
 */
export function useStartAction() {
  const { t } = useTranslation('workspace');
  const panel = usePanel();
  const { level, credits } = useUser();
  const selectedCount = useWorks((s) => s.works.filter((w) => w.selected).length);
  // Samples cost nothing; anything else needs a credit (Start stays off at 0).
  const selectedOwn = useWorks((s) => s.works.filter((w) => w.selected && !w.sample && !w.onDevice).length);
  const noCredits = credits === 0 && selectedOwn > 0 && useUser.getState().ready;
  // Works kept on this device run there for free: the note says so instead of counting credits.
  const allOnDevice = useWorks(
    (s) => s.works.some((w) => w.selected) && s.works.every((w) => !w.selected || w.onDevice),
  );
  const lim = limitsFor(level);

  const start = () => {
    if (selectedCount === 0) {
      dialogs.open({ kind: 'message', message: t('selectAtLeastOne'), tone: 'warning' });
      return;
    }
    const steps: Step[] = panel.tab === 'feature' ? [panel.feature] : panel.steps;
    if (panel.tab === 'workflow') {
      const err = chainError(
        steps.map((s) => s.config.module),
        lim.workflowSteps,
      );
      if (err) {
        dialogs.open({ kind: 'message', message: chainText(err), tone: 'warning' });
        return;
      }
    }
    for (const s of steps) {
      const e = entitlementError(level, s.config);
      if (e) {
        openUpgrade(panel.tab, 'upgrade_btn', entitlementText(e));
        return;
      }
    }
    // A result over the largest side cannot be made (the scales are disabled, but a preset or a newly selected image may still ask for one).
    const scale = jobScale(currentJobConfig(panel) as Work['params']);
    for (const w of useWorks.getState().works) {
      const over = w.selected ? outputTooLarge(w.w, w.h, scale) : null;
      if (over) {
        dialogs.open({
          kind: 'message',
          message: t('scaleTooLarge', { name: w.filename, scale, ...over }),
          tone: 'warning',
        });
        return;
      }
    }
    const res = startProcessing(currentJobConfig(panel));
    if (res === 'sampleFeature') {
      dialogs.open({ kind: 'message', message: t('sampleFeature'), tone: 'warning' });
      return;
    }
    if (res === 'workflowOnSample') {
      dialogs.open({ kind: 'message', message: t('workflowOnSample'), tone: 'warning' });
      return;
    }
    if (res === 'onDevice.onlyFeatures' || res === 'onDevice.only2x') {
      dialogs.open({
        kind: 'message',
        message: t(`deviceChoice.${res === 'onDevice.only2x' ? 'only2x' : 'onlyFeatures'}`),
        tone: 'warning',
      });
      return;
    }
    if (res === 'started')
      setTimeout(
        () => useWorks.getState().tab === 'uploaded' && useWorks.getState().setTab('processing'),
        TAB_SWITCH_AFTER_START_MS,
      );
  };
  return { start, selectedCount, allOnDevice, disabled: selectedCount === 0 || noCredits };
}

export function RightPanel() {
  const { t } = useTranslation('workspace');
  const panel = usePanel();
  const { level, logged, credits, creditStanding: standing } = useUser();
  const clearSelection = useWorks((s) => s.clearSelection);
  const { start, selectedCount, allOnDevice, disabled } = useStartAction();

  // Spec §4: selecting the workflow tab, or more than one step, clears sample selection.
  useEffect(() => {
    if (panel.tab === 'workflow' || panel.steps.length > 1) clearSelection((w) => Boolean(w.sample));
  }, [panel.tab, panel.steps.length, clearSelection]);

  return (
    <div className="panel">
      <div className="panel-tabs" role="tablist" aria-label={t('panel.label')}>
        <button
          role="tab"
          id="ptab-feature"
          aria-selected={panel.tab === 'feature'}
          aria-controls="ppanel"
          onClick={() => panel.setTab('feature')}
          data-testid="tab-feature"
        >
          {t('panel.feature')}
        </button>
        <button
          role="tab"
          id="ptab-workflow"
          aria-selected={panel.tab === 'workflow'}
          aria-controls="ppanel"
          onClick={() => panel.setTab('workflow')}
          data-testid="tab-workflow"
        >
          {t('panel.workflow')}
        </button>
      </div>
      <div id="ppanel" role="tabpanel" aria-labelledby={`ptab-${panel.tab}`} className="panel-body">
        {panel.tab === 'feature' ? <FeatureTab /> : <WorkflowTab />}
      </div>
      <div className="panel-foot">
        <DeviceChoice />
        <button className="btn btn-primary btn-block btn-lg" disabled={disabled} onClick={start} data-testid="start">
          {t('start', { count: selectedCount })}
        </button>
        <p className="note" data-testid="start-note">
          {selectedCount === 0
            ? t('selectImage')
            : allOnDevice
              ? t('deviceChoice.startNote')
              : t('startNote', { count: selectedCount, credits })}
        </p>
        {!allOnDevice && <StartEstimate />}
        {!logged && <p className="note">{t('guestNote')}</p>}
        {/* One rule for the credit note (src/shared/domain/plans.ts creditStanding): an untouched allowance is a welcome. */}
        {!isSubscriber(level) && standing === 'empty' ? (
          <p className="note low-credits" data-testid="low-credits">
            <Trans
              t={t}
              i18nKey="noCredits"
              components={{ 1: <L to="/pricing/?source=low_credit&medium=workspace_panel" /> }}
            />
          </p>
        ) : !isSubscriber(level) && standing === 'fresh' ? (
          <p className="note" data-testid="free-credits">
            {t('freeCredits', { count: credits })}
          </p>
        ) : (
          !isSubscriber(level) &&
          standing === 'low' && (
            <p className="note low-credits" data-testid="low-credits">
              <Trans
                t={t}
                i18nKey="lowCredits"
                values={{ count: credits }}
                components={{ 1: <L to="/pricing/?source=low_credit&medium=workspace_panel" /> }}
              />
            </p>
          )
        )}
      </div>
    </div>
  );
}

/** The selected works' sizes: the scale choice disables what the largest of them cannot take. */
function useSelectedSizes(): SelectedSize[] {
  const works = useWorks((s) => s.works);
  return useMemo(
    () => works.filter((w) => w.selected && w.w > 0 && w.h > 0).map((w) => ({ w: w.w, h: w.h, name: w.filename })),
    [works],
  );
}

function FeatureTab() {
  const { t } = useTranslation('workspace');
  const { feature, setFeatureModule, setFeatureParam } = usePanel();
  const level = useUser((s) => s.level);
  const sizes = useSelectedSizes();
  const [open, setOpen] = useState(true);
  return (
    <>
      <div className="feature-grid" role="radiogroup" aria-label={t('panel.feature')}>
        {FEATURE_MODULES.map((m) => (
          <button
            key={m}
            role="radio"
            aria-checked={feature.config.module === m}
            className={`feature-chip ${feature.config.module === m ? 'on' : ''}`}
            data-testid={`feature-${m}`}
            onClick={() =>
              isLockedModule(m, level) ? openUpgrade('feature', 'best_colorize', t('upgrade.pro')) : setFeatureModule(m)
            }
          >
            {t(`modules.${m}`)}
            {/* "Colorize Pro" already says Pro: no second badge. */}
            {isLockedModule(m, level) && m !== 'colorize_pro' && <span className="badge badge-pro">Pro</span>}
          </button>
        ))}
      </div>
      <p className="muted small">{t(`moduleHelp.${feature.config.module}`)}</p>
      <SettingsToggle open={open} onToggle={() => setOpen((v) => !v)} />
      {open && (
        <StepSettings
          module={feature.config.module}
          params={feature.config.module_params}
          level={level}
          source="feature"
          sizes={sizes}
          onChange={setFeatureParam}
        />
      )}
    </>
  );
}

function SettingsToggle({ open, onToggle, id }: { open: boolean; onToggle(): void; id?: string }) {
  const { t } = useTranslation('workspace');
  return (
    <button type="button" className="settings-toggle" aria-expanded={open} onClick={onToggle} data-testid={id}>
      <span aria-hidden="true">{open ? '▾' : '▸'}</span> {t('settings.toggle')}
    </button>
  );
}

const PRESET_MEDIUMS = Object.entries(MEDIUM_PRESETS) as [Medium, PresetName][];

function WorkflowTab() {
  const { t } = useTranslation('workspace');
  const panel = usePanel();
  const { level, logged } = useUser();
  const lim = limitsFor(level);
  const modules = panel.steps.map((s) => s.config.module);
  const addable = canAddStep(modules, lim.workflowSteps);
  const [saved, setSaved] = useState<endpoints.WorkflowRecord[]>([]);

  useEffect(() => {
    if (!logged) return;
    endpoints
      .workflowList(WORKFLOW_FIRST_PAGE, WORKFLOW_PAGE_SIZE)
      .then((r) => setSaved(r.datas ?? []))
      .catch(handleError);
  }, [logged, panel.savedVersion]);

  const last = modules[modules.length - 1];
  const lockReason = !addable
    ? modules.length >= lim.workflowSteps
      ? t('stepLimit', { count: lim.workflowSteps })
      : t('lastStepLocks', { module: t(`modules.${last}`) })
    : null;

  return (
    <>
      <div className="presets">
        <span className="label">{t('presets.title')}</span>
        <div className="chip-row">
          {PRESET_MEDIUMS.map(([medium, preset]) => (
            <button
              key={medium}
              className={`chip ${panel.preset === preset ? 'on' : ''}`}
              aria-pressed={panel.preset === preset}
              onClick={() => panel.usePreset(preset)}
              data-testid={`preset-${medium}`}
            >
              {t(`presets.${medium}`)}
            </button>
          ))}
          {saved.map((w) => (
            <button
              key={w.id}
              className={`chip ${panel.workflowId === w.id ? 'on' : ''}`}
              aria-pressed={panel.workflowId === w.id}
              onClick={() =>
                panel.useWorkflow(
                  w.id,
                  w.name,
                  w.flows.map((f) => ({
                    name: f.name,
                    config: typeof f.config === 'string' ? JSON.parse(f.config) : f.config,
                  })) as Step[],
                )
              }
            >
              {w.name}
            </button>
          ))}
        </div>
      </div>
      <ol className="steps">
        {panel.steps.map((s, i) => (
          <StepCard key={i} index={i} step={s} />
        ))}
      </ol>
      {logged ? (
        <div className="step-actions">
          <button
            className="btn btn-secondary btn-sm"
            disabled={!addable}
            onClick={() => panel.addStep(lim.workflowSteps)}
            data-testid="add-step"
          >
            + {t('addStep')}
          </button>
          <button
            className="link-btn"
            onClick={() => dialogs.open({ kind: 'saveWorkflow' })}
            data-testid="save-workflow"
          >
            {t('saveWorkflow')}
          </button>
        </div>
      ) : (
        <p className="note">{t('loginForSteps')}</p>
      )}
      {lockReason && (
        <p className="note" data-testid="add-lock">
          {lockReason}
        </p>
      )}
    </>
  );
}

function StepCard({ index, step }: { index: number; step: Step }) {
  const { t } = useTranslation('workspace');
  const panel = usePanel();
  const level = useUser((s) => s.level);
  const sizes = useSelectedSizes();
  const open = Boolean(panel.openSettings[index]);
  const selId = `step-${index}-module`;
  return (
    <li className="step-card" data-testid={`step-${index}`}>
      <div className="step-head">
        <span className="step-num" aria-hidden="true">
          {index + 1}
        </span>
        <label className="sr-only" htmlFor={selId}>
          {t('stepLabel', { n: index + 1 })}
        </label>
        <select
          id={selId}
          value={step.config.module}
          onChange={(e) => {
            const m = e.target.value as ModuleName;
            if (isLockedModule(m, level)) openUpgrade('workflow', 'best_colorize', t('upgrade.pro'));
            else panel.setStepModule(index, m);
          }}
        >
          {FEATURE_MODULES.filter((m) => m !== 'compress').map((m) => (
            <option key={m} value={m}>
              {t(`modules.${m}`)}
              {isLockedModule(m, level) ? ' (Pro)' : ''}
            </option>
          ))}
        </select>
        {index > 0 && (
          <button
            className="icon-btn"
            aria-label={t('deleteStep', { n: index + 1 })}
            onClick={() => panel.removeStep(index)}
            data-testid={`delete-step-${index}`}
          >
            ✕
          </button>
        )}
      </div>
      <SettingsToggle open={open} onToggle={() => panel.toggleSettings(index)} id={`toggle-step-${index}`} />
      {open && (
        <StepSettings
          module={step.config.module}
          params={step.config.module_params}
          level={level}
          source="workflow"
          sizes={sizes}
          onChange={(k, v) => panel.setStepParam(index, k, v)}
        />
      )}
    </li>
  );
}
