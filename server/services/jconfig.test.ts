import { describe, expect, it } from 'vitest';
import { parseJobConfig, parseParams } from '../../src/shared/domain/modules.js';
import { ApiError } from '../errors.js';
import { decodeJconfig, shapeError } from './jconfig.js';

const nested = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};

describe('decodeJconfig', () => {
  it.each([
    ['missing', undefined, { reason: 'fieldRequired', field: 'jconfig' }],
    ['empty', '', { reason: 'fieldRequired', field: 'jconfig' }],
    ['not JSON', '{job:', { reason: 'jconfigNotJson', field: 'jconfig' }],
    [
      'over 16 KB of text',
      JSON.stringify({ job: 'compress', pad: 'x'.repeat(16 * 1024) }),
      { reason: 'jconfigTooLarge', field: 'jconfig', max: 16 },
    ],
    [
      '100,000 deep as text (over 16 KB)',
      '['.repeat(100_000) + ']'.repeat(100_000),
      { reason: 'jconfigTooLarge', field: 'jconfig', max: 16 },
    ],
    ['9 deep as text', JSON.stringify(nested(9)), { reason: 'jconfigTooDeep', field: 'jconfig', max: 8 }],
    ['100,000 deep as an object', nested(100_000), { reason: 'jconfigTooDeep', field: 'jconfig', max: 8 }],
    [
      'a wide object',
      { job: 'compress', list: Array.from({ length: 20_000 }, () => 0) },
      { reason: 'jconfigTooLarge', field: 'jconfig', max: 16 },
    ],
  ])('%s → 10001 with its reason', (_, raw, data) => {
    let err: unknown;
    try {
      decodeJconfig(raw);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 10001, data });
  });

  it('a workflow as text or object decodes', () => {
    const wf = {
      job: 'workflow',
      flows: [{ name: 'd', config: { module: 'denoise', module_params: { remove_noise: 50 } } }],
    };
    expect(decodeJconfig(JSON.stringify(wf))).toEqual(wf);
    expect(decodeJconfig(wf)).toEqual(wf);
    expect(shapeError(nested(8), 8, 100)).toBeNull();
    expect(shapeError(nested(9), 8, 100)).toBe('deep');
  });
});

describe('strict params', () => {
  it.each([
    ['enlarge', { scale: [2] }],
    ['enlarge', { scale: '0x10' }],
    ['enlarge', { scale: '2.0' }],
    ['enlarge', { scale: true }],
    ['denoise', { remove_noise: '0x10' }],
    ['denoise', { remove_noise: [75] }],
    ['denoise', { remove_noise: '1e1' }],
    ['denoise', { remove_noise: ' 7' }],
    ['denoise', { remove_noise: 7.5 }],
  ] as const)('%s %j is refused', (module, params) => {
    expect(parseParams(module, params).ok).toBe(false);
  });

  it.each([
    ['enlarge', { scale: 4 }, { scale: 4 }],
    ['enlarge', { scale: '4' }, { scale: 4 }],
    ['enlarge', { scale: '4x' }, { scale: 4 }],
    ['enlarge', { scale: '8X' }, { scale: 8 }],
    ['denoise', { remove_noise: '40' }, { remove_noise: 40 }],
  ] as const)('%s %j is taken as %j', (module, params, want) => {
    const r = parseParams(module, params);
    expect(r.ok && r.value).toMatchObject(want);
  });

  it('enlarge quality best: subscribers only', () => {
    const best = { job: 'enlarge', config: { module_params: { quality: 'best' } } };
    expect(parseJobConfig(best, 'guest')).toEqual({ ok: false, error: { reason: 'bestEnlargeSubscribersOnly' } });
    expect(parseJobConfig(best, 'register').ok).toBe(false);
    expect(parseJobConfig(best, 'expired').ok).toBe(false);
    expect(parseJobConfig(best, 'basic').ok).toBe(true);
    expect(parseJobConfig(best, 'pro').ok).toBe(true);
  });
});
