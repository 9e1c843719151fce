/**
 * Redis connection options for a client that must not wait on Redis while it is away (the queue's
 * producer, the rate limits' counts): one retry per command, a short connect timeout, reconnects
 * backing off 200 ms … 2 s.
 */
export const GIVE_UP_QUICKLY = {
  maxRetriesPerRequest: 1,
  connectTimeout: 2000,
  retryStrategy: (n: number) => Math.min(200 * n, 2000),
} as const;
