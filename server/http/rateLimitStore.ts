/**
 * Where the request counts of every rate limit live (@fastify/rate-limit: the per-address limits of
 * the routes, the guest-token limit, the per-API-token limit). Embedded mode: in this process. Scale-out
 * (REDIS_URL): in Redis, under the deployment's QUEUE_PREFIX, so a limit holds across all API processes
 * behind the balancer instead of once per process (N processes would otherwise allow N times the limit).
 * When Redis does not answer, a request is let through rather than refused (skipOnError): the limits
 * are flood protection, and the queue on the same Redis already reports the outage (503 where work is
 * started). A command waits at most REDIS_COMMAND_MS, so an outage does not hold requests.
 */
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { GIVE_UP_QUICKLY } from '../redis.js';

const REDIS_COMMAND_MS = 1000;

export interface RateLimitStore {
  options: RateLimitPluginOptions;
  close(): Promise<void>;
}

/** The plugin's options for this deployment, and how to close what they opened. */
export function rateLimitStore(
  config: Pick<Config, 'redisUrl' | 'queuePrefix'>,
  onError: (err: Error) => void,
): RateLimitStore {
  if (!config.redisUrl) return { options: { global: false }, close: async () => undefined };
  const redis = new Redis(config.redisUrl, { ...GIVE_UP_QUICKLY, commandTimeout: REDIS_COMMAND_MS });
  redis.on('error', onError);
  return {
    options: { global: false, redis, nameSpace: `${config.queuePrefix}:rate-limit:`, skipOnError: true },
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
