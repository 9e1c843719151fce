import { describe, expect, it } from 'vitest';
import { ConcurrencyGate } from './gates.js';

describe('ConcurrencyGate', () => {
  it('refuses past the per-key and the total limit with 429, and frees a slot when a call ends', async () => {
    const gate = new ConcurrencyGate(1, 2);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const a = gate.run('a', () => held);
    await expect(gate.run('a', async () => 1)).rejects.toMatchObject({ code: 10001, httpStatus: 429 });
    const b = gate.run('b', () => held);
    await expect(gate.run('c', async () => 1)).rejects.toMatchObject({ httpStatus: 429 });
    expect(gate.active).toBe(2);
    release();
    await Promise.all([a, b]);
    expect(gate.active).toBe(0);
    await expect(gate.run('a', async () => 'ok')).resolves.toBe('ok');
    // a failing call frees its slot too
    await expect(gate.run('a', async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    await expect(gate.run('a', async () => 'again')).resolves.toBe('again');
  });
});
