import { describe, expect, it } from 'vitest';
import { idList, str } from './params.js';

describe('idList', () => {
  it.each([
    [{ uid: 'a,b, c' }, ['a', 'b', 'c']],
    [{ uids: ['a', 'b,c', 'a'] }, ['a', 'b', 'c']],
    [{ uid: 'x', 'uids[]': ['y', 'x'] }, ['x', 'y']],
    [{}, []],
    [{ uid: '' }, []],
  ])('%j → %j', (fields, want) => expect(idList(fields, 'uid', 'uids')).toEqual(want));
});

describe('str', () => {
  it.each([
    ['a', 'a'],
    [12, '12'],
    [['a'], undefined],
    [{ a: 1 }, undefined],
    [undefined, undefined],
  ])('%j → %j', (v, want) => expect(str(v)).toBe(want));
});
