// A decoded jconfig against the document's JobConfig: the first failing place is named inside the variant
// its `job` picks (not "matches no variant"), extra keys are named, and every feature's example passes.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { JobConfigSchema, JOB_NAMES } from '../../src/shared/schemas/jobConfig.js';
import { checkJobConfig, firstFailure } from './schemaCheck.js';

const schema = JobConfigSchema as unknown as Record<string, unknown>;
const refusal = (v: unknown) => {
  try {
    checkJobConfig(v);
  } catch (e) {
    return e instanceof ApiError ? { msg: e.message, data: e.data } : e;
  }
  return null;
};

describe('checkJobConfig', () => {
  it('takes every job the catalogue lists, in the forms parseJobConfig takes', () => {
    for (const job of JOB_NAMES) if (job !== 'workflow') expect(refusal({ job }), job).toBeNull();
    expect(
      refusal({
        job: 'enlarge',
        config: { module: 'enlarge', module_params: { scale: '4x', autoparams: 1, suppress_noise: '60' } },
      }),
    ).toBeNull();
    expect(
      refusal({
        job: 'workflow',
        flows: [
          { name: 'a', config: '{"module":"denoise"}' },
          { config: { module: 'enlarge', module_params: { scale: 2 } } },
        ],
      }),
    ).toBeNull();
  });

  it('names the field no job takes, at any depth', () => {
    expect(refusal({ job: 'sharpen', extra: 1 })).toEqual({
      msg: 'jconfig.extra is not a field of this call',
      data: { reason: 'fieldUnknown', field: 'jconfig.extra' },
    });
    expect(refusal({ job: 'sharpen', config: { module: 'sharpen', mode: 'x' } })).toMatchObject({
      data: { reason: 'fieldUnknown', field: 'jconfig.config.mode' },
    });
    expect(
      refusal({ job: 'workflow', flows: [{ config: { module: 'denoise', module_params: { strength: 3 } } }] }),
    ).toMatchObject({ data: { reason: 'fieldUnknown', field: 'jconfig.flows.0.config.module_params.strength' } });
  });

  it('tells the variants apart by job (and a step by module): a bad value is named inside its own feature', () => {
    expect(firstFailure(schema, { job: 'enlarge', config: { module_params: { scale: 3 } } })).toMatchObject({
      path: ['config', 'module_params', 'scale'],
      reason: 'fieldInvalid',
    });
    expect(firstFailure(schema, { job: 'nope' })).toMatchObject({ path: ['job'], reason: 'fieldInvalid' });
    expect(firstFailure(schema, {})).toMatchObject({ path: ['job'], reason: 'fieldRequired' });
    expect(firstFailure(schema, { job: 'workflow' })).toMatchObject({ path: ['flows'], reason: 'fieldRequired' });
  });
});
