import type { HealthReport } from '@bm/contracts';
import { checkWithin, pingDatabase, type RedisClient } from '@bm/platform';
import type { DataSource } from 'typeorm';

/** Real checks of the database (a query) and the cache (a PING), each bounded by the timeout. */
export async function checkHealth(
  dataSource: DataSource,
  redis: RedisClient,
  timeoutMs: number,
): Promise<HealthReport> {
  const [database, cache] = await Promise.all([
    checkWithin(() => pingDatabase(dataSource), timeoutMs),
    checkWithin(() => redis.ping(), timeoutMs),
  ]);
  const checks = { app: true, database, cache };
  return {
    status: database && cache ? 'healthy' : 'degraded',
    checks,
    timestamp: new Date().toISOString(),
  };
}
