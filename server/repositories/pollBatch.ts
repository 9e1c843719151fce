/**
 * Coalesces concurrent reads into one statement (DataLoader-style micro-batching), for the progress
 * poll in the scale-out mode: every open tab polls every few seconds, and one PostgreSQL round trip
 * per poll costs more (statement overhead in PostgreSQL, a socket write and a result parse in Node)
 * than the read itself. Nothing is cached: a key is read by a statement that starts after it was
 * asked for, so the answer is as fresh as a read of its own.
 *
 * Keys asked in the same event-loop turn go out together at the end of that turn; keys asked while
 * MAX_IN_FLIGHT batches are already running wait for the first of them to come back and go out in
 * the next one. A batch holds at most `maxBatch` keys. Each caller gets the value at its own
 * position of the answer (duplicates of one key are separate positions); when the statement fails,
 * every caller of that batch gets the same error it would have got alone.
 */

/** Batches running at once per batcher: one more overlaps a database round trip with Node's work on the previous answer. */
export const MAX_IN_FLIGHT = 2;
/** Keys in one statement at most. */
export const MAX_BATCH = 64;

interface Pending<K, V> {
  key: K;
  resolve(v: V): void;
  reject(e: unknown): void;
}

export class Batcher<K, V> {
  private queue: Pending<K, V>[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** statements run and keys answered so far (tests and benches read them) */
  readonly stats = { batches: 0, keys: 0, largest: 0 };

  /**
   * `run` answers a batch of keys in one statement: an array of the same length, the i-th value for
   * the i-th key. A shorter or longer answer fails the whole batch (it could not be matched safely).
   */
  constructor(
    private readonly run: (keys: K[]) => Promise<V[]>,
    private readonly maxBatch = MAX_BATCH,
    private readonly maxInFlight = MAX_IN_FLIGHT,
  ) {}

  load(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      this.queue.push({ key, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate: after the I/O callbacks of this turn, so requests read together go together.
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    while (this.queue.length && this.inFlight < this.maxInFlight) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      void this.send(batch).finally(() => {
        this.inFlight--;
        this.flush();
      });
    }
  }

  private async send(batch: Pending<K, V>[]): Promise<void> {
    this.stats.batches++;
    this.stats.keys += batch.length;
    this.stats.largest = Math.max(this.stats.largest, batch.length);
    let values: V[];
    try {
      values = await this.run(batch.map((p) => p.key));
      if (values.length !== batch.length)
        throw new Error(`batch answered ${values.length} values for ${batch.length} keys`);
    } catch (e) {
      for (const p of batch) p.reject(e);
      return;
    }
    batch.forEach((p, i) => p.resolve(values[i]!));
  }
}
