import { describe, expect, it } from 'vitest';
import { disposition } from './disposition.js';

describe('disposition', () => {
  it('sends an ASCII fallback and the UTF-8 name', () => {
    expect(disposition('attachment', 'café "x".jpg')).toBe(
      `attachment; filename="caf_ _x_.jpg"; filename*=UTF-8''caf%C3%A9%20%22x%22.jpg`,
    );
  });
});
