import type { DispatcherDeps } from './dispatcher-deps';

const BATCH = 1_000;

/**
 * Keeps the health monitor's tables bounded: finished deliveries older than the retention, their attempts and
 * their events go, a batch at a time. Safe with several replicas (rows are taken with SKIP LOCKED).
 */
export async function purgeOldDeliveries(deps: DispatcherDeps): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await deps.retention.purge(deps.config.DISPATCHER_RETENTION_DAYS, BATCH);
    total += n;
    if (n < BATCH) break;
  }
  if (total > 0) deps.logger.info('old webhook deliveries purged', { deliveries: total });
  return total;
}
