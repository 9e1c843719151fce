import { describe, expect, it } from 'vitest';
import { addressGroupOf, currentAddressGroup, mappedIpv4, withClientAddress } from './clientAddress.js';

describe('address groups', () => {
  it('an IPv4 address alone, in any IPv4-mapped spelling', () => {
    expect(addressGroupOf('192.0.2.7')).toBe('192.0.2.7');
    expect(addressGroupOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressGroupOf('::ffff:c000:207')).toBe('192.0.2.7');
    expect(addressGroupOf('0:0:0:0:0:ffff:c000:0207')).toBe('192.0.2.7');
  });

  it('an IPv6 address by its /64', () => {
    expect(addressGroupOf('2001:db8:5:6::1')).toBe('2001:db8:5:6::/64');
    expect(addressGroupOf('2001:0db8:0005:0006:ffff:1:2:3')).toBe('2001:db8:5:6::/64');
    expect(addressGroupOf('2001:db8:5:7::1')).toBe('2001:db8:5:7::/64');
    expect(addressGroupOf('::1')).toBe('0:0:0:0::/64');
    expect(addressGroupOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('mapped IPv4 only from ::ffff:0:0/96', () => {
    expect(mappedIpv4('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(mappedIpv4('::127.0.0.1')).toBeNull();
    expect(mappedIpv4('64:ff9b::7f00:1')).toBeNull();
    expect(mappedIpv4('not an address')).toBeNull();
  });

  it('the current request address is seen across awaits and not outside', async () => {
    expect(currentAddressGroup()).toBeUndefined();
    await withClientAddress('2001:db8::9', async () => {
      await new Promise((r) => setTimeout(r, 1));
      expect(currentAddressGroup()).toBe('2001:db8:0:0::/64');
    });
    expect(currentAddressGroup()).toBeUndefined();
  });
});
