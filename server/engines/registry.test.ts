import { describe, expect, it } from 'vitest';
import { MODULES, defaultParams } from '../../src/domain/modules.js';
import { allEngines, engineFor, missingEngines } from './registry.js';
import { ctx, input, rgbOf } from './testkit.js';

describe('engine registry', () => {
  it('has an engine for every module', () => {
    expect(missingEngines()).toEqual([]);
    for (const m of MODULES) expect(engineFor(m)?.module).toBe(m);
    expect(allEngines().length).toBe(MODULES.length);
  });

  it.each(MODULES.filter((m) => m !== 'compress' && m !== 'matting'))('%s transforms the pixels (never a pass-through)', async (m) => {
    const img = await input('astronaut.png', { width: 64 });
    const before = await rgbOf(img.data);
    const progress: number[] = [];
    const out = await engineFor(m)!.run(img, defaultParams(m), ctx(progress));
    const px = await rgbOf(out.data);
    expect(out.width).toBe(px.w);
    expect(out.height).toBe(px.h);
    if (px.w === before.w && px.h === before.h) {
      let d = 0;
      for (let i = 0; i < px.data.length; i++) d += Math.abs(px.data[i]! - before.data[i]!);
      expect(d / px.data.length).toBeGreaterThan(0.5);
    }
    expect(progress.at(-1)).toBe(1);
  });
});
