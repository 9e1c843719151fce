import { describe, expect, it } from 'vitest';
import { colourAffine } from './maxim.js';

describe('colour guided filter (maxim tone transfer)', () => {
  it('recovers a global 3×3 colour matrix + offset exactly', () => {
    const w = 40,
      h = 30,
      n = w * h;
    const I = [0, 1, 2].map((c) =>
      Float32Array.from({ length: n }, (_, i) => 0.5 + 0.4 * Math.sin(i * (0.37 + c * 0.11) + c)),
    );
    const M = [
      [0.9, 0.1, 0],
      [0.05, 0.8, 0.1],
      [0, 0.2, 1.1],
    ];
    const b = [0.05, -0.02, 0.1];
    const P = [0, 1, 2].map((c) =>
      Float32Array.from(
        { length: n },
        (_, i) => M[c]![0]! * I[0]![i]! + M[c]![1]! * I[1]![i]! + M[c]![2]! * I[2]![i]! + b[c]!,
      ),
    );
    const coef = colourAffine(I, P, w, h, 3, 1e-6);
    let err = 0;
    for (let i = 0; i < n; i++)
      for (let c = 0; c < 3; c++) {
        const q =
          coef[c * 3]![i]! * I[0]![i]! +
          coef[c * 3 + 1]![i]! * I[1]![i]! +
          coef[c * 3 + 2]![i]! * I[2]![i]! +
          coef[9 + c]![i]!;
        err = Math.max(err, Math.abs(q - P[c]![i]!));
      }
    expect(err).toBeLessThan(2e-3);
  });
});
