/** Raw HTTP helpers for the public-internet tests (security*.test.ts): exact headers and body bytes. */
import http from 'node:http';
import net from 'node:net';
import sharp from 'sharp';
import { expect } from 'vitest';

export interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: { code: number; msg: string; data: Record<string, unknown> | null } | null;
}

function jsonOrNull(text: string): Raw['body'] {
  try {
    return JSON.parse(text) as Raw['body'];
  } catch {
    return null;
  }
}

/** One request with exactly these headers and body bytes (node:http lets us set Host). */
export function send(
  base: string,
  method: string,
  p: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<Raw> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        method,
        path: p,
        headers: {
          connection: 'close',
          ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: jsonOrNull(text) });
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Bytes on a bare socket, for requests node:http would refuse to write (`GET /%`, not HTTP at all). */
export function rawSocket(base: string, bytes: string): Promise<string> {
  const u = new URL(base);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port), u.hostname, () => s.end(bytes));
    let out = '';
    s.on('data', (d) => (out += d));
    s.on('close', () => resolve(out));
    s.on('error', () => resolve(out));
  });
}
export const statusOf = (response: string) => Number(response.split(' ')[1]);
export const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

export const form = (f: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(f).toString(),
});

/** A refusal must be the envelope: code 10001, a specific text, a 4xx status. */
export function expectRefusal(r: { status: number; body: Raw['body'] }, status: number, msg: string | RegExp) {
  expect(r.status).toBe(status);
  expect(r.body?.code).toBe(10001);
  if (typeof msg === 'string') expect(r.body?.msg).toBe(msg);
  else expect(r.body?.msg).toMatch(msg);
}

export const jpeg = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 90, b: 30 } } })
    .jpeg()
    .toBuffer();
