import type { MessagingDeps } from '../messaging-deps';

const BATCH = 10_000;

/**
 * Folds the hourly counters' shards (a row per writing connection) of finished hours into one row per hour and
 * status, a batch at a time, so that the daily figures (a month of hours summed) read a row per hour and status
 * rather than one per connection too; answers how many rows were folded.
 */
export async function foldStatsShards(deps: Pick<MessagingDeps, 'stats'>): Promise<number> {
  let folded = 0;
  for (;;) {
    const n = await deps.stats.foldFinishedHours(BATCH);
    folded += n;
    if (n < BATCH) return folded;
  }
}
