import { describe, expect, it } from 'vitest';
import { defaultCurrency } from './payments.js';
import { signPayload, SIGNATURE_TOLERANCE_S, toMinor, verifySignature } from './paymentProviders.js';

const secret = Buffer.from('0123456789abcdef0123456789abcdef');
const body = Buffer.from('{"id":"evt_1","type":"checkout.completed"}');

describe('webhook signature', () => {
  const now = 1_800_000_000_000;
  const t = now / 1000;
  it('accepts its own signature within the tolerance, both ways', () => {
    expect(verifySignature(secret, body, signPayload(secret, body, t), now)).toBe(true);
    expect(verifySignature(secret, body, signPayload(secret, body, t - SIGNATURE_TOLERANCE_S), now)).toBe(true);
    expect(verifySignature(secret, body, signPayload(secret, body, t + SIGNATURE_TOLERANCE_S), now)).toBe(true);
  });
  it('refuses stale, future, other-key, other-body, malformed or missing signatures', () => {
    expect(verifySignature(secret, body, signPayload(secret, body, t - SIGNATURE_TOLERANCE_S - 1), now)).toBe(false);
    expect(verifySignature(secret, body, signPayload(secret, body, t + SIGNATURE_TOLERANCE_S + 1), now)).toBe(false);
    expect(verifySignature(Buffer.from('other'), body, signPayload(secret, body, t), now)).toBe(false);
    expect(verifySignature(secret, Buffer.concat([body, Buffer.from(' ')]), signPayload(secret, body, t), now)).toBe(
      false,
    );
    for (const h of [undefined, '', 'v1=abc', `t=${t}`, `t=${t},v1=zz`, `t=x,v1=${'0'.repeat(64)}`, 'x'.repeat(600)])
      expect(verifySignature(secret, body, h, now)).toBe(false);
  });
});

describe('prices', () => {
  it('minor units per currency and the language default (USD en/ja, EUR de/fr)', () => {
    expect(toMinor(9.9, 'USD')).toBe(990);
    expect(toMinor(19.9, 'EUR')).toBe(1990);
    expect(toMinor(1500, 'JPY')).toBe(1500);
    expect(['en', 'ja', 'de', 'fr', undefined].map(defaultCurrency)).toEqual(['USD', 'USD', 'EUR', 'EUR', 'USD']);
  });
});
