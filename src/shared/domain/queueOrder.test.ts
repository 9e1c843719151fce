import { describe, expect, it } from 'vitest';
import { agedClass, QUEUE_AGING_MS, QUEUE_CLASSES, QUEUE_TURNS, queueClass } from './queueOrder.js';

describe('queue classes', () => {
  it('put every Pro turn before Basic, Basic before registered and expired, those before guests', () => {
    const last = (l: Parameters<typeof queueClass>[0]) => queueClass(l, QUEUE_TURNS);
    expect(last('pro')).toBeLessThan(queueClass('basic', 1));
    expect(last('basic')).toBeLessThan(queueClass('register', 1));
    expect(queueClass('expired', 1)).toBe(queueClass('register', 1));
    expect(last('register')).toBeLessThan(queueClass('guest', 1));
    expect(queueClass('guest', 1)).toBe(QUEUE_CLASSES);
  });

  it("within a level, an account's later works stand behind another account's first", () => {
    expect(queueClass('pro', 1)).toBe(0);
    expect(queueClass('pro', 2)).toBe(1);
    expect(queueClass('pro', 99)).toBe(QUEUE_TURNS - 1);
    expect(queueClass('pro', 0)).toBe(0);
  });

  it('age one class per step, down to the front', () => {
    expect(agedClass(48, QUEUE_AGING_MS - 1)).toBe(48);
    expect(agedClass(48, QUEUE_AGING_MS)).toBe(47);
    expect(agedClass(48, 1000 * QUEUE_AGING_MS)).toBe(0);
    expect(agedClass(5, -1)).toBe(5);
    expect(agedClass(48, 50, 10)).toBe(43);
  });
});
