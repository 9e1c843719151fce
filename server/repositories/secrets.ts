/** The server secret (HMAC key for site ajax nonces and signed links), kept in DATA_DIR so every process shares it. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const cache = new Map<string, Buffer>();

/** Reads DATA_DIR/secret.key, creating it once (exclusive create: concurrent starters agree on one secret). */
export function serverSecret(dataDir: string): Buffer {
  const file = path.join(dataDir, 'secret.key');
  const hit = cache.get(file);
  if (hit) return hit;
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  let hex = '';
  // A concurrent creator may not have finished writing; wait for the full 64 hex characters.
  for (let i = 0; i < 50 && hex.length < 64; i++) {
    hex = fs.readFileSync(file, 'utf8').trim();
    if (hex.length < 64) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`invalid server secret in ${file}`);
  const key = Buffer.from(hex, 'hex');
  cache.set(file, key);
  return key;
}
