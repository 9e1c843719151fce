import { describe, expect, it } from 'vitest';
import { fetchRemoteImage, isPrivateAddress, safeDecode } from './remoteImage.js';

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['::ffff:127.0.0.1', true],
    ['not-an-ip', true],
    ['8.8.8.8', false],
    ['172.32.0.1', false],
    ['2606:4700::1111', false],
    ['::ffff:1.1.1.1', false],
    // ranges that embed or route to IPv4 (NAT64, IPv4-compatible, 6to4) and site-local
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::a00:1', true],
    ['::7f00:1', true],
    ['::127.0.0.1', true],
    ['2002:7f00:1::1', true],
    ['2002:c0a8:101::1', true],
    ['fec0::1', true],
    ['2001:4860:4860::8888', false],
  ])('%s → %s', (a, want) => expect(isPrivateAddress(a)).toBe(want));

  it('a malformed escape in the file name is kept as it is, not thrown (upload_url once answered 500)', () => {
    expect(safeDecode('%E0%A4%A.jpg')).toBe('%E0%A4%A.jpg');
    expect(safeDecode('my%20photo.jpg')).toBe('my photo.jpg');
  });

  it('refuses other schemes and credentials in URLs without connecting', async () => {
    const opts = { maxBytes: 10, timeoutMs: 1000, allowPrivate: false };
    await expect(fetchRemoteImage('ftp://example.com/a.jpg', opts)).rejects.toThrow('valid http or https');
    await expect(fetchRemoteImage('http://user:pw@example.com/a.jpg', opts)).rejects.toThrow('valid http or https');
    await expect(fetchRemoteImage('http://127.0.0.1:1/a.jpg', opts)).rejects.toThrow('cannot be fetched');
  });
});
