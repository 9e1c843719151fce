/** The embedded mode's JobQueue: the jobs table itself, polled, with an in-process wake-up. */
import type { Kysely } from 'kysely';
import type { JobHandler, JobQueue } from './jobQueue.js';
import type { Database } from '../repositories/schema.js';
import { nextQueued } from '../repositories/jobRepository.js';
import { QUEUE_AGING_MS } from '../../src/shared/domain/queueOrder.js';

export interface QueueLogger {
  error(obj: unknown, msg?: string): void;
}

/**
 * Jobs-table queue in the order of src/shared/domain/queueOrder.ts (level, the account's turn, aging, then
 * created_at). Claiming is done by the handler with an atomic UPDATE.
 */
export class EmbeddedJobQueue implements JobQueue {
  private handler: JobHandler | null = null;
  private concurrency = 1;
  private running = false;
  private pumping = false;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly inflight = new Set<string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: QueueLogger,
    /** how often other processes' inserts are noticed; in-process enqueues wake at once */
    private readonly pollMs = 1000,
    /** a waiting work moves up one queue class per this many ms (src/shared/domain/queueOrder.ts) */
    private readonly agingMs = QUEUE_AGING_MS,
  ) {}

  async enqueue(): Promise<void> {
    this.wake();
  }

  async start(handler: JobHandler, concurrency: number): Promise<void> {
    this.handler = handler;
    this.concurrency = Math.max(1, concurrency);
    this.running = true;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private wake(): void {
    if (!this.running) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    this.pump()
      .catch((err) => this.log.error({ err }, 'job queue poll failed'))
      .finally(() => {
        this.pumping = false;
      });
  }

  private async pump(): Promise<void> {
    do {
      this.again = false;
      while (this.running && this.handler && this.inflight.size < this.concurrency) {
        const transId = await nextQueued(this.db, [...this.inflight], Date.now(), this.agingMs);
        if (!transId || !this.running) break;
        this.inflight.add(transId);
        this.handler(transId)
          .catch((err) => this.log.error({ err, transId }, 'job handler failed'))
          .finally(() => {
            this.inflight.delete(transId);
            this.wake();
          });
      }
    } while (this.again && this.running);
  }
}
