import { describe, expect, it } from 'vitest';
import { CREDITS_PER_WORK, creditCost } from './credits.js';

describe('creditCost', () => {
  it('charges compress works to the compress credits and every other work to the plan', () => {
    expect(creditCost({ job: 'compress' })).toEqual({ pool: 'compress', amount: CREDITS_PER_WORK });
    for (const job of ['enlarge', 'workflow', 'se-night'])
      expect(creditCost({ job })).toEqual({ pool: 'plan', amount: CREDITS_PER_WORK });
  });

  it('prices a work at one credit', () => {
    expect(CREDITS_PER_WORK).toBe(1);
  });
});
