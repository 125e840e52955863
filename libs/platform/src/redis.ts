import Redis from 'ioredis';
import type { Logger } from './logger';

export type RedisClient = Redis;

export interface RedisOptions {
  url: string;
  /** Prefix of every key, so test runs and environments never meet. */
  keyPrefix?: string;
  logger?: Logger;
  /**
   * A connection for blocking reads (XREAD BLOCK): no command timeout, which would cut the wait short; the reader
   * bounds its own waits.
   */
  blocking?: boolean;
}

/**
 * An ioredis client that fails fast while Redis is down (no unbounded offline queue) and reconnects on its own.
 */
export function createRedis(options: RedisOptions): RedisClient {
  const client = new Redis(options.url, {
    keyPrefix: options.keyPrefix,
    lazyConnect: false,
    enableOfflineQueue: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: options.blocking ? undefined : 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  let down = false;
  client.on('error', (err: Error) => {
    if (!down) options.logger?.warn('redis connection error', { error: err.message });
    down = true;
  });
  client.on('ready', () => {
    if (down) options.logger?.info('redis reconnected');
    down = false;
  });
  return client;
}
