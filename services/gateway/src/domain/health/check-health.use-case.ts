import type { HealthReport } from '@bm/contracts';
import { checkWithin } from '@bm/platform';
import type { HealthProbes } from '../ports/health.port';

/** Real checks of the database (a query) and the cache (a PING), each bounded by the timeout. */
export async function checkHealth(probes: HealthProbes, timeoutMs: number): Promise<HealthReport> {
  const [database, cache] = await Promise.all([
    checkWithin(() => probes.database(), timeoutMs),
    checkWithin(() => probes.cache(), timeoutMs),
  ]);
  const checks = { app: true, database, cache };
  return {
    status: database && cache ? 'healthy' : 'degraded',
    checks,
    timestamp: new Date().toISOString(),
  };
}
