/**
 * Fetching an image by URL for /api/job_utils/upload_url: http/https only, a byte cap, a timeout,
 * at most a few redirects, and (unless allowed) none of the addresses isPrivateAddress refuses — checked on
 * the address actually connected to (after DNS) and again on every redirect, so DNS tricks cannot reach the inside.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import { mappedIpv4 } from '../clientAddress.js';
import { REASON } from '../../src/shared/domain/reasons.js';

/** A URL the server will not or could not fetch, with its reason (the catalogue's English text as message). */
export class RemoteRefused extends Error {
  constructor(readonly reason: RemoteReason) {
    super(REASON[reason]);
  }
}
type RemoteReason = 'urlInvalid' | 'urlPrivate' | 'urlFailed' | 'fileTooLarge' | 'urlTimeout';

const BLOCKED = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  // documentation (TEST-NET-1..3), the old 6to4 relay anycast and benchmarking: never a public image host,
  // and a network may use them inside (the host's own address was 192.0.2.2 in the attacker's pass)
  ['192.0.2.0', 24],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(addr, prefix, 'ipv4');
for (const [addr, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4-compatible (deprecated), NAT64 and 6to4 addresses carry an IPv4 address inside: any of
  // them may lead to a private one, so all are refused; so are the old site-local ones.
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  // documentation
  ['2001:db8::', 32],
  ['fec0::', 10],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(addr, prefix, 'ipv6');

/** The same address in one spelling: an IPv4-mapped IPv6 address (any spelling) as its IPv4 address, IPv6 lower-case, no zone. */
function canonical(address: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  const bare = address.replace(/^\[|\]$/g, '');
  if (net.isIP(bare) === 4) return { address: bare, family: 'ipv4' };
  if (net.isIP(bare) !== 6) return null;
  const v4 = mappedIpv4(bare);
  if (v4) return { address: v4, family: 'ipv4' };
  return { address: bare.replace(/%.*$/, '').toLowerCase(), family: 'ipv6' };
}

/** This host's own addresses (every interface, IPv4 and IPv6), read when asked: interfaces come and go. */
export function ownAddresses(interfaces = os.networkInterfaces()): net.BlockList {
  const own = new net.BlockList();
  for (const list of Object.values(interfaces))
    for (const i of list ?? []) {
      const c = canonical(i.address);
      if (c) own.addAddress(c.address, c.family);
    }
  return own;
}

/**
 * The one rule for addresses the server must not connect to on a caller's behalf (upload_url; webhooks
 * reuse it): loopback, private, link-local, shared (CGNAT), documentation, benchmarking, multicast and
 * reserved ranges, IPv6 forms that carry an IPv4 address, and this host's own interface addresses, in
 * any spelling (IPv4-mapped IPv6 is its IPv4 address). Anything that is not an IP address is refused.
 */
export function isPrivateAddress(address: string, own: net.BlockList = ownAddresses()): boolean {
  const c = canonical(address);
  if (!c) return true;
  return BLOCKED.check(c.address, c.family) || own.check(c.address, c.family);
}

export interface FetchOptions {
  maxBytes: number;
  timeoutMs: number;
  /** how long to wait for the answer's first byte (the status line) before giving up with urlTimeout */
  firstByteMs?: number;
  allowPrivate: boolean;
  maxRedirects?: number;
}

/** A URL path segment decoded; one with a malformed escape (`%E0%A4%A`) is kept as it is (it was a 500). */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Returns the body bytes and the last URL's file name. Throws RemoteRefused with its reason. */
export async function fetchRemoteImage(rawUrl: string, opts: FetchOptions): Promise<{ data: Buffer; name: string }> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new RemoteRefused('urlInvalid');
  }
  const deadline = Date.now() + opts.timeoutMs;
  for (let hop = 0; hop <= (opts.maxRedirects ?? 3); hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RemoteRefused('urlInvalid');
    if (url.username || url.password) throw new RemoteRefused('urlInvalid');
    const res = await request(url, opts, deadline);
    if (res.redirect) {
      url = new URL(res.redirect, url);
      continue;
    }
    const name = safeDecode(url.pathname.split('/').pop() || '') || 'image';
    return { data: res.data!, name };
  }
  throw new RemoteRefused('urlFailed');
}

function request(url: URL, opts: FetchOptions, deadline: number): Promise<{ data?: Buffer; redirect?: string }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !opts.allowPrivate && isPrivateAddress(host))
    return Promise.reject(new RemoteRefused('urlPrivate'));
  // The check runs on the resolved address the socket will use, not on a separate lookup.
  const lookup: net.LookupFunction = (hostname, options, cb) => {
    dns.lookup(hostname, { ...options, all: false }, (err, address, family) => {
      if (err) return cb(err, '', 0);
      if (!opts.allowPrivate && isPrivateAddress(address as string)) return cb(new RemoteRefused('urlPrivate'), '', 0);
      cb(null, address as string, family);
    });
  };
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new RemoteRefused('urlTimeout'));
    const req = lib.get(
      url,
      { lookup, headers: { accept: 'image/jpeg,image/png;q=0.9,*/*;q=0.1', 'user-agent': 'Pixmill/1' } },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return resolve({ redirect: res.headers.location });
        }
        if (status !== 200) {
          res.resume();
          return reject(new RemoteRefused('urlFailed'));
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > opts.maxBytes) {
          res.destroy();
          return reject(new RemoteRefused('fileTooLarge'));
        }
        const parts: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > opts.maxBytes) {
            res.destroy();
            reject(new RemoteRefused('fileTooLarge'));
            return;
          }
          parts.push(c);
        });
        res.on('end', () => resolve({ data: Buffer.concat(parts) }));
        res.on('error', () => reject(new RemoteRefused('urlFailed')));
      },
    );
    const timer = setTimeout(() => req.destroy(new RemoteRefused('urlTimeout')), remaining);
    const firstByte = setTimeout(
      () => req.destroy(new RemoteRefused('urlTimeout')),
      Math.min(remaining, opts.firstByteMs ?? remaining),
    );
    req.on('response', () => clearTimeout(firstByte));
    req.on('close', () => {
      clearTimeout(timer);
      clearTimeout(firstByte);
    });
    req.on('error', (e) => reject(e instanceof RemoteRefused ? e : new RemoteRefused('urlFailed')));
  });
}
