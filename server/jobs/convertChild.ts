/**
 * A compress conversion process (convertProcess.ts): re-encodes a compress result (download_compress)
 * outside the API process, at the slots' lower OS priority, so a 100 MP conversion neither holds the
 * API's event loop and libuv pool nor takes the cores from HTTP. One conversion at a time.
 */
// First import: lowers this process's priority before anything starts a thread (threads inherit it).
import './slotPriority.js';
import fs from 'node:fs/promises';
import { convertCompressed, type ExtraType } from '../repositories/resultFiles.js';

if (!process.send) throw new Error('convertChild must run as a forked process');

export interface ConvertRequest {
  id: number;
  path: string;
  to: ExtraType;
  quality: number;
}
export type ConvertAnswer = { id: number; data: Uint8Array } | { id: number; error: string };

process.on('message', (m: ConvertRequest) => {
  void (async () => {
    try {
      const data = await convertCompressed(await fs.readFile(m.path), m.to, m.quality);
      process.send!({ id: m.id, data } satisfies ConvertAnswer);
    } catch (e) {
      process.send!({ id: m.id, error: e instanceof Error ? e.message : String(e) } satisfies ConvertAnswer);
    }
  })();
});
// The parent went away: nothing would read our result.
process.on('disconnect', () => process.exit(0));
