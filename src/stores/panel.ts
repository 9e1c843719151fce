/** Right panel state: feature tab (one step) or workflow tab (steps, presets, saved workflows). */
import { create } from 'zustand';
import {
  canAddStep,
  defaultParams,
  PRESET_ONLY_MODULES,
  PRESETS,
  type JobConfig,
  type ModuleName,
  type ModuleParams,
  type PresetName,
  type Step,
} from '../shared/domain/modules.js';

type PanelTab = 'feature' | 'workflow';

export interface PanelState {
  tab: PanelTab;
  feature: Step;
  steps: Step[];
  preset: PresetName | null;
  /** saved workflow being edited, if any */
  workflowId: number | string | null;
  workflowName: string;
  /** bumped when a workflow is saved, so lists reload */
  savedVersion: number;
  /** which step's settings are expanded */
  openSettings: Record<number, boolean>;
  /** a feature, preset or workflow was picked (by the page or the user), not just the default: first use may auto-start */
  chosen: boolean;
  setTab(tab: PanelTab): void;
  setFeatureModule(module: ModuleName): void;
  setFeatureParam(key: string, value: ModuleParams[string]): void;
  setStepModule(index: number, module: ModuleName): void;
  setStepParam(index: number, key: string, value: ModuleParams[string]): void;
  addStep(maxSteps: number): void;
  removeStep(index: number): void;
  toggleSettings(index: number): void;
  usePreset(preset: PresetName): void;
  useWorkflow(id: number | string, name: string, steps: Step[]): void;
}

const makeStep = (module: ModuleName, params?: ModuleParams): Step => ({
  name: module,
  config: { module, module_params: { ...defaultParams(module), ...(params ?? {}) } },
});

const copySteps = (steps: readonly Step[]): Step[] =>
  steps.map((s) => makeStep(s.config.module, { ...s.config.module_params }));

export const usePanel = create<PanelState>((set, get) => ({
  tab: 'feature',
  feature: makeStep('denoise'),
  steps: [makeStep('denoise')],
  preset: null,
  workflowId: null,
  workflowName: '',
  savedVersion: 0,
  openSettings: {},
  chosen: false,
  setTab: (tab) => set({ tab }),
  setFeatureModule: (module) => set({ feature: makeStep(module), chosen: true }),
  setFeatureParam: (key, value) =>
    set((s) => ({
      feature: {
        ...s.feature,
        config: { ...s.feature.config, module_params: { ...s.feature.config.module_params, [key]: value } },
      },
    })),
  setStepModule: (index, module) =>
    set((s) => ({ steps: s.steps.map((st, i) => (i === index ? makeStep(module) : st)), preset: null })),
  setStepParam: (index, key, value) =>
    set((s) => ({
      steps: s.steps.map((st, i) =>
        i === index
          ? { ...st, config: { ...st.config, module_params: { ...st.config.module_params, [key]: value } } }
          : st,
      ),
      preset: null,
    })),
  addStep: (maxSteps) => {
    const s = get();
    if (
      !canAddStep(
        s.steps.map((x) => x.config.module),
        maxSteps,
      )
    )
      return;
    set({ steps: [...s.steps, makeStep('sharpen')], preset: null });
  },
  removeStep: (index) => {
    if (index === 0) return;
    set((s) => ({ steps: s.steps.filter((_, i) => i !== index), preset: null }));
  },
  toggleSettings: (index) => set((s) => ({ openSettings: { ...s.openSettings, [index]: !s.openSettings[index] } })),
  // A preset's hidden steps (scratch repair) still run: the job is sent by the preset's name.
  usePreset: (preset) =>
    set({
      tab: 'workflow',
      preset,
      steps: copySteps(PRESETS[preset].filter((st) => !PRESET_ONLY_MODULES.includes(st.config.module))),
      workflowId: null,
      workflowName: '',
      chosen: true,
    }),
  useWorkflow: (id, name, steps) =>
    set({ tab: 'workflow', preset: null, steps: copySteps(steps), workflowId: id, workflowName: name, chosen: true }),
}));

/** The jconfig of the current panel (spec §7 transform). */
export function currentJobConfig(
  s: Pick<PanelState, 'tab' | 'feature' | 'steps' | 'preset' | 'workflowName'>,
): JobConfig {
  if (s.tab === 'feature')
    return {
      job: s.feature.config.module,
      config: { module: s.feature.config.module, module_params: { ...s.feature.config.module_params } },
    };
  if (s.preset) return { job: s.preset };
  return { job: 'workflow', name: s.workflowName || undefined, flows: copySteps(s.steps) };
}
