import { describe, expect, it } from 'vitest';
import { MODULES, defaultParams } from '../../src/shared/domain/modules.js';
import { allEngines, assertAllEngines, engineFor, runModule } from './registry.js';
import { ctx, input, rgbOf } from '../../tests/support/engines.js';

describe('engine registry', () => {
  it('has an engine for every module', () => {
    expect(() => assertAllEngines()).not.toThrow();
    for (const m of MODULES) expect(engineFor(m).module).toBe(m);
    expect(allEngines().map((e) => e.module)).toEqual([...MODULES]);
  });

  it('assertAllEngines refuses a missing engine, and one filed under another module', () => {
    const all = Object.fromEntries(MODULES.map((m) => [m, engineFor(m)]));
    const { denoise: _gone, ...withoutDenoise } = all;
    expect(() => assertAllEngines(withoutDenoise)).toThrow(/no engine for module denoise\b/);
    expect(() => assertAllEngines({ ...all, sharpen: engineFor('sharpen_auto') })).toThrow(
      /no engine for module sharpen\b/,
    );
  });

  // repair leaves a photo without scratches as it is (repair.test.ts checks it removes them)
  it.each(MODULES.filter((m) => m !== 'compress' && m !== 'matting' && m !== 'repair'))(
    '%s transforms the pixels (never a pass-through)',
    async (m) => {
      const img = await input('astronaut.png', { width: 64 });
      const before = await rgbOf(img.data);
      const progress: number[] = [];
      const out = await engineFor(m).run(img, defaultParams(m), ctx(progress));
      const px = await rgbOf(out.data);
      expect(out.width).toBe(px.w);
      expect(out.height).toBe(px.h);
      if (px.w === before.w && px.h === before.h) {
        let d = 0;
        for (let i = 0; i < px.data.length; i++) d += Math.abs(px.data[i]! - before.data[i]!);
        expect(d / px.data.length).toBeGreaterThan(0.5);
      }
      expect(progress.at(-1)).toBe(1);
    },
  );

  // Engines hold no defaults of their own: a work sent without params gets exactly the schema's.
  it.each(MODULES)('%s run without params equals a run with the schema defaults', async (m) => {
    const img = await input('astronaut.png', { width: 48, format: 'jpeg' });
    const bare = await runModule(m, img, undefined, ctx([], 'jpeg'));
    const withDefaults = await engineFor(m).run(img, defaultParams(m), ctx([], 'jpeg'));
    expect(bare.format).toBe(withDefaults.format);
    expect([bare.width, bare.height]).toEqual([withDefaults.width, withDefaults.height]);
    expect(bare.data.equals(withDefaults.data)).toBe(true);
    expect(Object.keys(bare.extras ?? {})).toEqual(Object.keys(withDefaults.extras ?? {}));
  });

  it('runModule refuses params the schema refuses, before the engine runs', async () => {
    const img = await input('astronaut.png', { width: 16 });
    await expect(runModule('sharpen', img, { sharpness: 101 }, ctx())).rejects.toThrow(
      'sharpen.sharpness is invalid (from 0 to 100)',
    );
    await expect(runModule('enlarge', img, { scale: 3 }, ctx())).rejects.toThrow(/^enlarge\.scale is invalid/);
  });
});
