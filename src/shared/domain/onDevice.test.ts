import { describe, expect, it } from 'vitest';
import { ON_DEVICE_LEVEL, onDeviceJob } from './onDevice.js';
import { limitsFor } from './plans.js';

describe('onDeviceJob', () => {
  it('runs enlarge 2x with the standard model, background removal and compress', () => {
    // enlarge runs with the user's denoise/deblur (the module's defaults when missing), as on the server
    expect(
      onDeviceJob({ job: 'enlarge', config: { module: 'enlarge', module_params: { scale: 2, quality: 'high' } } }),
    ).toEqual({
      ok: true,
      feature: 'enlarge',
      enlarge: { autoparams: false, suppress_noise: 75, remove_blur: 75 },
    });
    expect(
      onDeviceJob({
        job: 'enlarge',
        config: {
          module: 'enlarge',
          module_params: { scale: 2, autoparams: true, suppress_noise: 10, remove_blur: 0 },
        },
      }),
    ).toEqual({
      ok: true,
      feature: 'enlarge',
      enlarge: { autoparams: true, suppress_noise: 10, remove_blur: 0 },
    });
    expect(
      onDeviceJob({ job: 'enlarge', config: { module: 'enlarge', module_params: { scale: 2, suppress_noise: 400 } } }),
    ).toEqual({ ok: false, reason: 'onDevice.only2x' });
    expect(onDeviceJob({ job: 'matting', config: { module: 'matting', module_params: { rescale: 320 } } })).toEqual({
      ok: true,
      feature: 'matting',
    });
    expect(onDeviceJob({ job: 'compress', config: { module: 'compress', module_params: { quality: 60 } } })).toEqual({
      ok: true,
      feature: 'compress',
      quality: 60,
    });
  });

  it('keeps what a plan sells on the server: 4x and the best enlarge model', () => {
    expect(onDeviceJob({ job: 'enlarge', config: { module: 'enlarge', module_params: { scale: 4 } } })).toEqual({
      ok: false,
      reason: 'onDevice.only2x',
    });
    expect(
      onDeviceJob({ job: 'enlarge', config: { module: 'enlarge', module_params: { scale: 2, quality: 'best' } } }),
    ).toEqual({ ok: false, reason: 'onDevice.only2x' });
  });

  it('refuses the other features, presets and workflows', () => {
    expect(onDeviceJob({ job: 'colorize' })).toEqual({ ok: false, reason: 'onDevice.onlyFeatures' });
    expect(onDeviceJob({ job: 'workflow', flows: [] })).toEqual({ ok: false, reason: 'onDevice.onlyFeatures' });
  });

  it('fits works kept on the device to the guest limits', () => {
    expect(limitsFor(ON_DEVICE_LEVEL).maxMegapixels).toBe(2.8);
  });
});
