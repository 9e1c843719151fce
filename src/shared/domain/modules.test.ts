import { describe, expect, it } from 'vitest';
import {
  canAddStep,
  chainError,
  defaultParams,
  entitlementError,
  FEATURE_MODULES,
  isWorkflowJob,
  MODULES,
  parseJobConfig,
  parseParams,
  PRESETS,
  ruleRefusal,
} from './modules.js';
import { reasonMsg } from './reasons.js';

describe('module params (spec §3, §5, §9)', () => {
  it('defaults follow the spec', () => {
    expect(defaultParams('denoise')).toMatchObject({ remove_noise: 75, sharpen: 75, model_name: 'DenoiseStable' });
    expect(defaultParams('sharpen')).toMatchObject({ sharpness: 75, suppress_noise: 75, add_grain: 0 });
    expect(defaultParams('enlarge')).toMatchObject({
      scale: 2,
      suppress_noise: 75,
      remove_blur: 75,
      model_name: 'EnlargeStable',
    });
    expect(defaultParams('colorize')).toMatchObject({ render_factor: 10 });
    expect(defaultParams('colorize_pro')).toMatchObject({ render_factor: 30 });
    expect(defaultParams('matting')).toMatchObject({ rescale: 532 });
    expect(defaultParams('compress')).toMatchObject({ quality: 50 });
    expect(defaultParams('perfect')).toMatchObject({ model_name: 'perfect_2k' });
  });
  it.each([
    ['denoise', { remove_noise: 101 }, false],
    ['denoise', { remove_noise: -1 }, false],
    ['denoise', { remove_noise: 0 }, true],
    ['denoise', { remove_noise: '40' }, true],
    ['denoise', { nope: 1 }, false],
    ['enlarge', { scale: 3 }, false],
    ['enlarge', { scale: '4x' }, true],
    ['enlarge', { model_name: 'Other' }, false],
    ['compress', { quality: 0 }, false],
    ['compress', { quality: 100 }, true],
    ['portrait', { single_face: 'true' }, true],
    ['portrait', { single_face: 'maybe' }, false],
  ] as const)('%s %o valid=%s', (m, p, valid) => {
    expect(parseParams(m, p).ok).toBe(valid);
  });
  it('refuses non-object params', () => {
    expect(parseParams('denoise', [1]).ok).toBe(false);
    expect(parseParams('denoise', 'x').ok).toBe(false);
  });
  it('says why by reason code, naming the param and what it allows (no sentence)', () => {
    expect(parseParams('denoise', { remove_noise: 101 })).toEqual({
      ok: false,
      error: { reason: 'paramInvalid', module: 'denoise', param: 'remove_noise', min: 0, max: 100 },
    });
    expect(parseParams('enlarge', { scale: 3 })).toEqual({
      ok: false,
      error: { reason: 'paramInvalid', module: 'enlarge', param: 'scale', allowed: [2, 4, 6, 8] },
    });
    expect(parseParams('denoise', { nope: 1 })).toEqual({
      ok: false,
      error: { reason: 'paramUnknown', module: 'denoise', param: 'nope' },
    });
    expect(parseParams('denoise', 'x')).toEqual({ ok: false, error: { reason: 'paramsNotObject', module: 'denoise' } });
  });
});

describe('workflow chain rules', () => {
  it.each([
    [[], 3, { code: 'noSteps' }, 'There is no valid workflow'],
    [['denoise', 'enlarge'], 3, null, null],
    [['enlarge', 'denoise'], 3, { code: 'lastStepOnly', module: 'enlarge' }, 'enlarge must be the last step'],
    [['matting', 'sharpen'], 5, { code: 'lastStepOnly', module: 'matting' }, 'matting must be the last step'],
    [
      ['denoise', 'sharpen', 'perfect', 'cartoonize'],
      3,
      { code: 'tooManySteps', max: 3 },
      'A workflow has at most 3 steps',
    ],
    [['denoise', 'sharpen', 'perfect', 'cartoonize'], 5, null, null],
  ] as const)('%o (max %i) → %o', (mods, max, err, text) => {
    const got = chainError(mods, max);
    expect(got).toEqual(err);
    // The API's English msg comes from the reason's catalogue text in one place.
    expect(got && reasonMsg(ruleRefusal(got))).toBe(text);
  });
  it.each([
    [[], 3, true],
    [['denoise'], 3, true],
    [['denoise', 'enlarge'], 3, false],
    [['denoise', 'sharpen', 'perfect'], 3, false],
    [['denoise', 'sharpen', 'perfect'], 5, true],
  ] as const)('canAddStep %o max %i → %s', (mods, max, yes) => expect(canAddStep(mods, max)).toBe(yes));
});

describe('entitlements (spec §5, §6)', () => {
  it('PSD only for pro', () => {
    const cfg = { module: 'colorize' as const, module_params: { ...defaultParams('colorize'), psd: true } };
    expect(entitlementError('basic', cfg)).toEqual({ code: 'psdProOnly' });
    expect(ruleRefusal({ code: 'psdProOnly' })).toEqual({ reason: 'psdProOnly' });
    expect(entitlementError('pro', cfg)).toBeNull();
  });
  it('scales above 2x only for subscribers', () => {
    const cfg = { module: 'enlarge' as const, module_params: { ...defaultParams('enlarge'), scale: 4 } };
    expect(entitlementError('register', cfg)).toEqual({ code: 'scaleSubscribersOnly', scale: 4 });
    expect(entitlementError('guest', cfg)).toEqual({ code: 'scaleSubscribersOnly', scale: 4 });
    expect(entitlementError('basic', cfg)).toBeNull();
  });
  it('best colorize only for pro', () => {
    expect(entitlementError('basic', { module: 'colorize_pro', module_params: defaultParams('colorize_pro') })).toEqual(
      { code: 'bestColorizeProOnly' },
    );
    expect(
      entitlementError('pro', { module: 'colorize_pro', module_params: defaultParams('colorize_pro') }),
    ).toBeNull();
  });
});

describe('parseJobConfig', () => {
  it('a single module job', () => {
    const r = parseJobConfig(
      { job: 'compress', config: { module: 'compress', module_params: { quality: 60 } } },
      'guest',
    );
    expect(r).toEqual({
      ok: true,
      value: {
        job: 'compress',
        isWorkflow: false,
        steps: [{ name: 'compress', config: { module: 'compress', module_params: { quality: 60 } } }],
      },
    });
  });
  it('every preset expands to its steps', () => {
    for (const name of Object.keys(PRESETS)) {
      const r = parseJobConfig({ job: name }, 'guest');
      expect(r.ok && r.value.steps.map((s) => s.config.module)).toEqual(
        PRESETS[name as keyof typeof PRESETS].map((s) => s.config.module),
      );
    }
    const night = parseJobConfig({ job: 'se-night' }, 'guest');
    expect(night.ok && night.value.steps[0].config.module_params).toMatchObject({
      remove_noise: 75,
      sharpen: 75,
      remove_original_detail: 0,
    });
  });
  it('custom workflows follow the chain and step rules; configs may be JSON strings', () => {
    const flows = [
      { name: 'a', config: JSON.stringify({ module: 'denoise', module_params: {} }) },
      { name: 'b', config: { module: 'enlarge', module_params: { scale: 2 } } },
    ];
    expect(parseJobConfig({ job: 'workflow', flows }, 'register').ok).toBe(true);
    expect(parseJobConfig({ job: 'workflow', flows: [...flows].reverse() }, 'register')).toEqual({
      ok: false,
      error: { reason: 'lastStepOnly', module: 'enlarge' },
    });
    expect(parseJobConfig({ job: 'workflow', flows: [] }, 'pro')).toEqual({
      ok: false,
      error: { reason: 'noValidWorkflow' },
    });
  });
  it.each([
    [null],
    ['x'],
    [{ job: 'nope' }],
    [{ job: 'denoise', config: { module: 'sharpen' } }],
    [{ job: 'enlarge', config: { module_params: { scale: 8 } } }],
  ])('refuses %o for a guest', (cfg) => expect(parseJobConfig(cfg, 'guest').ok).toBe(false));
  it('knows every module', () => expect(MODULES).toHaveLength(13));
  it("offers the spec's 12 features; repair runs only inside se-old-repair", () => {
    expect(FEATURE_MODULES).toHaveLength(12);
    expect(FEATURE_MODULES).not.toContain('repair');
    expect(PRESETS['se-old-repair'][0]!.name).toBe('repair');
  });
});

describe('isWorkflowJob (client start rule and server parse, one definition)', () => {
  it.each([
    ['workflow', true],
    ['se-night', true],
    ['se-old-repair', true],
    ['se-unknown', false],
    ['enlarge', false],
    ['compress', false],
    [undefined, false],
  ] as const)('%s → %s', (job, want) => expect(isWorkflowJob(job)).toBe(want));
  it('agrees with parseJobConfig', () => {
    expect(parseJobConfig({ job: 'se-night' }, 'pro')).toMatchObject({ ok: true, value: { isWorkflow: true } });
    expect(parseJobConfig({ job: 'denoise' }, 'pro')).toMatchObject({ ok: true, value: { isWorkflow: false } });
  });
});
