import { describe, expect, it } from 'vitest';
import { canSelect, selectAllChecked, selectAllCids, selectAllMixed } from './selection.js';
import type { WorkStatus } from './work.js';

describe('selection caps', () => {
  const works = (n: number, selected: number) =>
    Array.from({ length: n }, (_, i) => ({ cid: `c${i}`, status: 'ready' as WorkStatus, selected: i < selected }));
  it.each([
    ['guest', 0, true],
    ['guest', 1, false],
    ['basic', 4, true],
    ['basic', 5, false],
    ['pro', 9, true],
    ['pro', 10, false],
    ['expired', 1, false],
  ] as const)('%s with %i selected may select one more: %s', (level, sel, expected) => {
    expect(canSelect(works(12, sel), 'c11', level)).toBe(expected);
  });
  it('only ready works are selectable', () => {
    expect(canSelect([{ cid: 'a', status: 'uploading', selected: false }], 'a', 'pro')).toBe(false);
    expect(canSelect([{ cid: 'a', status: 'finished', selected: false }], 'a', 'pro')).toBe(false);
  });
  it.each([
    // spec §2: checked only when every visible selectable work is selected; at the cap with more left it is mixed
    ['basic', 6, 5, false, true],
    ['basic', 6, 4, false, true],
    ['basic', 3, 3, true, false],
    ['guest', 4, 1, false, true],
    ['pro', 0, 0, false, false],
  ] as const)('select-all for %s with %i ready, %i selected: checked %s, mixed %s', (level, n, sel, checked, mixed) => {
    expect(selectAllChecked(works(n, sel), level)).toBe(checked);
    expect(selectAllMixed(works(n, sel))).toBe(mixed);
  });
  it('select-all counts only the selectable: a finished or uploading work beside all-selected ready ones still shows checked', () => {
    expect(selectAllChecked([...works(2, 2), { cid: 'u', status: 'uploading' as WorkStatus, selected: false }])).toBe(
      true,
    );
  });
  it('select-all stops at the plan limit', () => {
    expect(selectAllCids(works(8, 0), 'basic')).toHaveLength(5);
    expect(selectAllCids(works(8, 0), 'guest')).toEqual(['c0']);
  });
});
