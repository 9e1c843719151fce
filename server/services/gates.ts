/**
 * Concurrency gates for work a caller can start at will and that costs the server memory, CPU or an
 * outbound connection (download_compress re-encodes, upload_url fetches): at most `perKey` at once
 * for one caller and `total` at once in this process. Over either, the call is refused at once with
 * 429 (the envelope's 10001, the upload refusal text and its code) instead of queueing without bound.
 */
import { uploadRefused } from '../errors.js';

export class ConcurrencyGate {
  private readonly running = new Map<string, number>();
  private all = 0;

  constructor(
    readonly perKey: number,
    readonly total: number,
  ) {}

  /** Runs `fn` within the limits, or throws the 429 refusal without running it. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const mine = this.running.get(key) ?? 0;
    if (mine >= this.perKey || this.all >= this.total) throw uploadRefused('tooManyRequests', 429);
    this.running.set(key, mine + 1);
    this.all++;
    try {
      return await fn();
    } finally {
      this.all--;
      const left = (this.running.get(key) ?? 1) - 1;
      if (left > 0) this.running.set(key, left);
      else this.running.delete(key);
    }
  }

  /** Calls running now (for tests and logs). */
  get active(): number {
    return this.all;
  }
}
