import { describe, expect, it } from 'vitest';
import { keyGuard } from './keys.js';

describe('keyGuard', () => {
  const isColour = keyGuard({ red: '#f00', green: '#0f0' });

  it('takes the table’s own keys and nothing else', () => {
    expect(
      ['red', 'green', 'blue', 'toString', 'constructor', '', 1, null, undefined, { red: 1 }].filter(isColour),
    ).toEqual(['red', 'green']);
  });
});
