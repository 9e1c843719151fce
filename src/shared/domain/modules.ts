/**
 * Processing modules, their params schemas (spec §3, §5, §9) and the job configuration (`jconfig`).
 * Shared by the client (step settings UI) and the server (validation, engines).
 */
import { DEFAULT_COMPRESS_QUALITY, MATTING_DEFAULT_RESCALE } from './constants.js';
import { keyGuard } from './keys.js';
import { limitsFor, type Level } from './plans.js';
import type { RefusalData } from './reasons.js';

export const MODULES = [
  'enlarge',
  'denoise',
  'sharpen',
  'sharpen_auto',
  'matting',
  'colorize',
  'colorize_pro',
  'portrait',
  'cartoonize',
  'face_enhancer',
  'perfect',
  'repair',
  'compress',
] as const;
export type ModuleName = (typeof MODULES)[number];

/**
 * Modules that only run as a step of a preset scene (spec §3 lists the features a user picks; scratch
 * and dust repair is our first step of se-old-repair, not a feature of its own).
 */
export const PRESET_ONLY_MODULES: readonly ModuleName[] = ['repair'];
/** The features a user can pick in the workspace and in a workflow's steps (spec §3). */
export const FEATURE_MODULES: readonly ModuleName[] = MODULES.filter((m) => !PRESET_ONLY_MODULES.includes(m));

export type ParamSpec =
  | { kind: 'int'; min: number; max: number; default: number }
  | { kind: 'bool'; default: boolean }
  | { kind: 'enum'; values: readonly (string | number)[]; default: string | number }
  | { kind: 'const'; value: string };

export type ParamsSchema = Readonly<Record<string, ParamSpec>>;

const pct = (d: number) => ({ kind: 'int', min: 0, max: 100, default: d }) as const;
const bool = (d = false) => ({ kind: 'bool', default: d }) as const;
const model = <V extends string>(value: V) => ({ kind: 'const', value }) as const;

// Literal types kept, so each module's parsed params have a type of their own (ParamsOf).
const SCHEMAS = {
  enlarge: {
    model_name: model('EnlargeStable'),
    autoparams: bool(),
    suppress_noise: pct(75),
    remove_blur: pct(75),
    scale: { kind: 'enum', values: [2, 4, 6, 8], default: 2 },
    quality: { kind: 'enum', values: ['high', 'best'], default: 'high' },
  },
  denoise: {
    model_name: model('DenoiseStable'),
    remove_noise: pct(75),
    sharpen: pct(75),
    remove_original_detail: pct(0),
    autoparams: bool(),
  },
  sharpen: {
    sharpness: pct(75),
    // spec §5: denoise and sharpen values default to 75
    suppress_noise: pct(75),
    add_grain: pct(0),
    autoparams: bool(),
  },
  sharpen_auto: { model_name: model('DpedSharpenStable') },
  matting: { rescale: { kind: 'enum', values: [MATTING_DEFAULT_RESCALE, 320], default: MATTING_DEFAULT_RESCALE } },
  colorize: {
    model_name: model('ColorizeStable_pth'),
    render_factor: { kind: 'int', min: 1, max: 50, default: 10 },
    psd: bool(),
    isBest: bool(),
    quality: { kind: 'int', min: 1, max: 100, default: 100 },
  },
  colorize_pro: {
    model_name: model('ColorizeStable_pth'),
    render_factor: { kind: 'int', min: 1, max: 50, default: 30 },
    psd: bool(),
  },
  portrait: { single_face: bool() },
  cartoonize: { model_name: model('CartoonizeStable') },
  face_enhancer: { model_name: model('FaceEnhancerStable') },
  perfect: { model_name: model('perfect_2k') },
  repair: {},
  compress: { quality: { kind: 'int', min: 1, max: 100, default: DEFAULT_COMPRESS_QUALITY } },
} as const satisfies Record<ModuleName, ParamsSchema>;

export const MODULE_PARAMS: Readonly<Record<ModuleName, ParamsSchema>> = SCHEMAS;

type ValueOf<S> = S extends { kind: 'int' }
  ? number
  : S extends { kind: 'bool' }
    ? boolean
    : S extends { kind: 'enum'; values: readonly (infer V)[] }
      ? V
      : S extends { kind: 'const'; value: infer V }
        ? V
        : never;

/** The params of module M after parseParams: every key present, typed by its spec. */
export type ParamsOf<M extends ModuleName> = M extends ModuleName
  ? { -readonly [K in keyof (typeof SCHEMAS)[M]]: ValueOf<(typeof SCHEMAS)[M][K]> }
  : never;

/** Only these may be a workflow's last step, and nothing may follow them (spec §4, §5). */
const LAST_STEP_ONLY: readonly ModuleName[] = ['enlarge', 'matting'];

export type ParamValue = string | number | boolean;
export type ModuleParams = Record<string, ParamValue>;

export function isModuleName(v: unknown): v is ModuleName {
  return typeof v === 'string' && (MODULES as readonly string[]).includes(v);
}

export function defaultParams<M extends ModuleName>(module: M): ParamsOf<M> & ModuleParams {
  const out: ModuleParams = {};
  for (const [k, s] of Object.entries(MODULE_PARAMS[module])) out[k] = s.kind === 'const' ? s.value : s.default;
  return out as ParamsOf<M> & ModuleParams;
}

/** A value, or why not: the refusal's reason and the values it names (src/shared/domain/reasons.ts); never a sentence. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: RefusalData };

/** What a param allows, when a value is refused: its range or its choices. */
type Allows = { min?: number; max?: number; allowed?: readonly ParamValue[] };

const DECIMAL = /^-?\d{1,9}$/;

function coerce(spec: ParamSpec, raw: unknown): { ok: true; value: ParamValue } | { ok: false; allows: Allows } {
  switch (spec.kind) {
    case 'const':
      return raw === spec.value ? { ok: true, value: spec.value } : { ok: false, allows: { allowed: [spec.value] } };
    case 'bool':
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (raw === 0 || raw === 1 || raw === '0' || raw === '1' || raw === 'true' || raw === 'false')
        return { ok: true, value: raw === 1 || raw === '1' || raw === 'true' };
      return { ok: false, allows: { allowed: [true, false] } };
    case 'int': {
      // Strict: a JSON number, or plain decimal digits; never arrays, hex, exponents or blanks.
      const n = typeof raw === 'string' && DECIMAL.test(raw) ? Number(raw) : raw;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < spec.min || n > spec.max)
        return { ok: false, allows: { min: spec.min, max: spec.max } };
      return { ok: true, value: n };
    }
    case 'enum': {
      // The value itself; for numeric choices also its text, with the spec's "x" suffix ("4", "4x").
      const hit = spec.values.find(
        (v) => v === raw || (typeof v === 'number' && typeof raw === 'string' && new RegExp(`^${v}x?$`, 'i').test(raw)),
      );
      return hit === undefined ? { ok: false, allows: { allowed: spec.values } } : { ok: true, value: hit };
    }
  }
}

/** Validates module params: unknown keys are refused, missing keys take the spec default. */
export function parseParams<M extends ModuleName>(module: M, raw: unknown): Result<ParamsOf<M> & ModuleParams> {
  if (raw !== undefined && (raw === null || typeof raw !== 'object' || Array.isArray(raw)))
    return { ok: false, error: { reason: 'paramsNotObject', module } };
  const input = (raw ?? {}) as Record<string, unknown>;
  const schema = MODULE_PARAMS[module];
  for (const key of Object.keys(input))
    if (!(key in schema)) return { ok: false, error: { reason: 'paramUnknown', module, param: key } };
  const out: ModuleParams = defaultParams(module);
  for (const [key, spec] of Object.entries(schema)) {
    if (input[key] === undefined) continue;
    const r = coerce(spec, input[key]);
    if (!r.ok) return { ok: false, error: { reason: 'paramInvalid', module, param: key, ...r.allows } };
    out[key] = r.value;
  }
  return { ok: true, value: out as ParamsOf<M> & ModuleParams };
}

export interface Step {
  name: string;
  config: { module: ModuleName; module_params: ModuleParams };
}

const step = (module: ModuleName, params: ModuleParams = {}): Step => ({
  name: module,
  config: { module, module_params: { ...defaultParams(module), ...params } },
});

/**
 * Preset workflows (spec §3). se-hd's steps are not in the spec: sharpen_auto (backs off on sharp
 * input) → enlarge 2x with autoparams (denoise/deblur only as measured). Our own enlarge
 * net already undoes a plain downscale's softness, so the extra deblur pass is for soft pictures.
 * se-old-repair = the spec's steps after scratch/dust repair.
 */
export const PRESETS = {
  'se-night': [step('denoise', { remove_noise: 75, sharpen: 75, remove_original_detail: 0 }), step('perfect')],
  'se-hd': [step('sharpen_auto'), step('enlarge', { scale: 2, autoparams: true, suppress_noise: 50, remove_blur: 50 })],
  'se-portrait-enhancement': [
    step('denoise', { remove_noise: 75, sharpen: 75, remove_original_detail: 0 }),
    step('face_enhancer'),
    step('enlarge', { scale: 2, suppress_noise: 50, remove_blur: 50 }),
  ],
  'se-old-repair': [
    step('repair'),
    step('denoise', { remove_noise: 75, sharpen: 75 }),
    step('colorize', { quality: 100 }),
    step('enlarge', { scale: 2, suppress_noise: 50, remove_blur: 50 }),
  ],
} as const satisfies Record<string, readonly Step[]>;
export type PresetName = keyof typeof PRESETS;

/** URL `medium` values (spec §2) → preset. */
export const MEDIUM_PRESETS = {
  ai_super_hd: 'se-hd',
  ai_portrait_enhancement: 'se-portrait-enhancement',
  ai_night_scene: 'se-night',
  ai_old_photo_repire_colorize: 'se-old-repair',
} as const satisfies Record<string, PresetName>;
export type Medium = keyof typeof MEDIUM_PRESETS;

export const isMedium = keyGuard(MEDIUM_PRESETS);
export const isPreset = keyGuard(PRESETS);

/**
 * Why a workflow's chain of steps is refused: a code with its data. The client translates it
 * (workspace:noValidWorkflow / tooManySteps / lastStepOnly); the server answers it as ruleRefusal()'s reason.
 */
export type ChainError =
  { code: 'noSteps' } | { code: 'tooManySteps'; max: number } | { code: 'lastStepOnly'; module: ModuleName };

/** Workflow chain rule: enlarge / matting only as the last step. Returns why not, or null. */
export function chainError(modules: readonly ModuleName[], maxSteps: number): ChainError | null {
  if (modules.length === 0) return { code: 'noSteps' };
  if (modules.length > maxSteps) return { code: 'tooManySteps', max: maxSteps };
  const i = modules.findIndex((m) => LAST_STEP_ONLY.includes(m));
  if (i !== -1 && i !== modules.length - 1) return { code: 'lastStepOnly', module: modules[i] as ModuleName };
  return null;
}

/** Whether another step may be added after these (spec: enlarge/matting last lock adding). */
export function canAddStep(modules: readonly ModuleName[], maxSteps: number): boolean {
  if (modules.length >= maxSteps) return false;
  const last = modules[modules.length - 1];
  return last === undefined || !LAST_STEP_ONLY.includes(last);
}

/**
 * Why a level may not run a step (spec §5, §6): a code with its data. The client shows the upgrade
 * dialog with workspace:upgrade.<psd|pro|scale>; the server answers it as ruleRefusal()'s reason.
 */
export type EntitlementError =
  | { code: 'psdProOnly' }
  | { code: 'bestColorizeProOnly' }
  | { code: 'scaleSubscribersOnly'; scale: number }
  | { code: 'bestEnlargeSubscribersOnly' };

/** Level gating of a step (spec §5, §6). Returns why not, or null. */
export function entitlementError(level: Level, s: Step['config']): EntitlementError | null {
  const lim = limitsFor(level);
  const p = s.module_params;
  if (p.psd === true && !lim.psd) return { code: 'psdProOnly' };
  if ((s.module === 'colorize_pro' || p.isBest === true) && !lim.bestColorize) return { code: 'bestColorizeProOnly' };
  if (s.module === 'enlarge' && !lim.scales.includes(Number(p.scale)))
    return { code: 'scaleSubscribersOnly', scale: Number(p.scale) };
  if (s.module === 'enlarge' && p.quality === 'best' && !lim.bestEnlarge) return { code: 'bestEnlargeSubscribersOnly' };
  return null;
}

export type RuleError = ChainError | EntitlementError;

/** The refusal of a rule failure: the catalogue's reason (src/shared/domain/reasons.ts) and the values it names. */
export function ruleRefusal(e: RuleError): RefusalData {
  switch (e.code) {
    case 'noSteps':
      return { reason: 'noValidWorkflow' };
    case 'tooManySteps':
      return { reason: 'tooManySteps', max: e.max };
    case 'lastStepOnly':
      return { reason: 'lastStepOnly', module: e.module };
    case 'scaleSubscribersOnly':
      return { reason: 'scaleSubscribersOnly', scale: e.scale };
    default:
      return { reason: e.code };
  }
}

/** The job configuration sent as `jconfig` on transform. */
export type JobConfig =
  | { job: ModuleName; config?: { module?: ModuleName; module_params?: ModuleParams } }
  | { job: PresetName }
  | { job: 'workflow'; name?: string; flows: Step[] };

export interface ParsedJob {
  /** job name as stored and shown: module name, preset name or 'workflow' */
  job: string;
  isWorkflow: boolean;
  steps: Step[];
}

/** A job that runs several steps: a user's workflow or a preset (spec §3); samples cannot take one. */
export function isWorkflowJob(job: unknown): job is 'workflow' | PresetName {
  return job === 'workflow' || isPreset(job);
}

/** Parses and validates a jconfig (already JSON-decoded) for a level. */
export function parseJobConfig(raw: unknown, level: Level): Result<ParsedJob> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, error: { reason: 'jconfigNotObject' } };
  const cfg = raw as Record<string, unknown>;
  const job = cfg.job;
  let steps: Step[];
  const isWorkflow = isWorkflowJob(job);
  if (isModuleName(job)) {
    const c = (cfg.config ?? {}) as Record<string, unknown>;
    if (c.module !== undefined && c.module !== job) return { ok: false, error: { reason: 'moduleMismatch' } };
    const params = parseParams(job, c.module_params);
    if (!params.ok) return params;
    steps = [{ name: job, config: { module: job, module_params: params.value } }];
  } else if (isPreset(job)) {
    steps = PRESETS[job].map((s) => ({
      name: s.name,
      config: { module: s.config.module, module_params: { ...s.config.module_params } },
    }));
  } else if (job === 'workflow') {
    if (!Array.isArray(cfg.flows)) return { ok: false, error: { reason: 'noValidWorkflow' } };
    steps = [];
    for (const f of cfg.flows as unknown[]) {
      const fc = (f as { config?: unknown; name?: unknown } | null)?.config;
      const conf = (typeof fc === 'string' ? safeJson(fc) : fc) as
        { module?: unknown; module_params?: unknown } | undefined;
      if (!conf || !isModuleName(conf.module)) return { ok: false, error: { reason: 'noValidWorkflow' } };
      const params = parseParams(conf.module, conf.module_params);
      if (!params.ok) return params;
      const name = (f as { name?: unknown }).name;
      steps.push({
        name: typeof name === 'string' ? name.slice(0, 50) : conf.module,
        config: { module: conf.module, module_params: params.value },
      });
    }
    const chain = chainError(
      steps.map((s) => s.config.module),
      limitsFor(level).workflowSteps,
    );
    if (chain) return { ok: false, error: ruleRefusal(chain) };
  } else {
    return { ok: false, error: { reason: 'unknownJob' } };
  }
  for (const s of steps) {
    const e = entitlementError(level, s.config);
    if (e) return { ok: false, error: ruleRefusal(e) };
  }
  return { ok: true, value: { job: String(job), isWorkflow, steps } };
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
