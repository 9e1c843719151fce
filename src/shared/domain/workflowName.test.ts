import { describe, expect, it } from 'vitest';
import { normaliseWorkflowName } from './workflowName.js';

describe('workflow name', () => {
  it('defaults to workflow_<readable timestamp>', () => {
    const now = new Date(2026, 10, 23, 9, 5, 7).getTime();
    expect(normaliseWorkflowName('  ', 50, now)).toEqual({ ok: true, name: 'workflow_2026-11-23_09-05-07' });
  });
  it('refuses more than 50 characters', () => {
    expect(normaliseWorkflowName('x'.repeat(50), 50, 1)).toEqual({ ok: true, name: 'x'.repeat(50) });
    expect(normaliseWorkflowName('x'.repeat(51), 50, 1).ok).toBe(false);
  });
});
