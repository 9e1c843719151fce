/**
 * The address a request came from, for the rules that count per address (the guest works of one
 * address, issue 48) deep inside services that see a Principal, not the request. The address is
 * Fastify's req.ip: the peer, or with TRUST_PROXY the client a trusted proxy names (a forged
 * X-Forwarded-For from anyone else is not read). It is held in an AsyncLocalStorage entered just
 * before the handler runs (preHandler: after the body is read, whose stream events would not carry
 * it), so every await of the handler sees it; code running outside a request sees none. Here, beside
 * errors.ts and config.ts, because every layer reads it (services, jobs, repositories); the Fastify
 * hook that enters it is http/requestAddress.ts.
 *
 * Addresses are grouped the way one holder gets them: an IPv4 address alone (IPv4-mapped IPv6 is
 * the IPv4 address), an IPv6 address by its /64 (the smallest block a provider hands a customer, who
 * can use any of its 2^64 addresses).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import net from 'node:net';

const requestAddress = new AsyncLocalStorage<string>();

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (net.isIP(address) !== 6) return null;
  let text = address.replace(/%.*$/, '').toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (s: string | undefined) => (s ? s.split(':').map((h) => parseInt(h, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - front.length - back.length).fill(0);
  const groups = [...front, ...zeros, ...back];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d in any spelling), else null. */
export function mappedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g || g.slice(0, 5).some((x) => x !== 0) || g[5] !== 0xffff) return null;
  return [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff].join('.');
}

/** The group an address counts in: an IPv4 address itself, an IPv6 address's /64 ("2001:db8:1:2::/64"). */
export function addressGroupOf(address: string): string {
  if (net.isIP(address) === 4) return address;
  const v4 = mappedIpv4(address);
  if (v4) return v4;
  const g = ipv6Groups(address);
  if (!g) return address;
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`;
}

/** The address group of the request being handled, or undefined outside one. */
export function currentAddressGroup(): string | undefined {
  return requestAddress.getStore();
}

/** Runs `fn` as handling a request from `address`: the HTTP layer's hook (http/requestAddress.ts), workers and tests. */
export function withClientAddress<T>(address: string, fn: () => T): T {
  return requestAddress.run(addressGroupOf(address), fn);
}
