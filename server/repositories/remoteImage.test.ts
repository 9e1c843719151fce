import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { fetchRemoteImage, isPrivateAddress, ownAddresses, safeDecode } from './remoteImage.js';

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
    // documentation, 6to4 relay, benchmarking and shared ranges, in every IPv4-mapped spelling (issue 48)
    ['192.0.2.2', true],
    ['198.51.100.7', true],
    ['203.0.113.9', true],
    ['192.88.99.1', true],
    ['198.19.255.1', true],
    ['100.127.0.1', true],
    ['2001:db8::1', true],
    ['2001:db8:ffff::1', true],
    ['::ffff:192.0.2.2', true],
    ['::ffff:c000:202', true],
    ['[::ffff:c000:202]', true],
    ['0:0:0:0:0:ffff:c000:0202', true],
    ['::ffff:7f00:1', true],
    ['::ffff:808:808', false],
    ['192.0.3.1', false],
    ['2001:db9::1', false],
  ])('%s → %s', (a, want) => expect(isPrivateAddress(a)).toBe(want));

  it("refuses this host's own interface addresses, IPv4 and IPv6, in mapped forms too", () => {
    const own = ownAddresses({
      eth0: [
        { address: '8.8.4.4', family: 'IPv4', netmask: '255.255.255.0', mac: '', internal: false, cidr: null },
        {
          address: '2a00:1450:4001::5',
          family: 'IPv6',
          netmask: 'ffff:ffff:ffff:ffff::',
          mac: '',
          internal: false,
          cidr: null,
          scopeid: 0,
        },
      ],
    });
    for (const a of ['8.8.4.4', '::ffff:8.8.4.4', '::ffff:808:404', '2a00:1450:4001::5', '2A00:1450:4001:0:0:0:0:5'])
      expect([a, isPrivateAddress(a, own)]).toEqual([a, true]);
    expect(isPrivateAddress('8.8.4.5', own)).toBe(false);
    expect(isPrivateAddress('2a00:1450:4001::6', own)).toBe(false);
    // and by default the interfaces this host has now
    for (const list of Object.values(os.networkInterfaces()))
      for (const i of list ?? []) expect([i.address, isPrivateAddress(i.address)]).toEqual([i.address, true]);
  });

  it('refuses the special ranges and mapped forms in URLs without connecting, and a name that resolves to this host', async () => {
    const opts = { maxBytes: 10, timeoutMs: 5000, allowPrivate: false };
    for (const u of [
      'http://192.0.2.2:8092/a.jpg',
      'http://[::ffff:192.0.2.2]:8092/a.jpg',
      'http://[2001:db8::2]/a.jpg',
      'http://198.18.0.1/a.jpg',
    ])
      await expect(fetchRemoteImage(u, opts), u).rejects.toMatchObject({ reason: 'urlPrivate' });
    // the check after DNS: this host's own name resolves to one of its own addresses
    await expect(fetchRemoteImage(`http://${os.hostname()}:1/a.jpg`, opts)).rejects.toMatchObject({
      reason: 'urlPrivate',
    });
  });

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
