import { applyOrphanedReports } from './apply-orphaned-reports';
import { releaseDueRetries } from './release-due-retries';
import { releaseScheduledMessages } from './release-scheduled-messages';
import { requeueStrandedMessages } from './requeue-stranded-messages';
import { settleAbandonedAttempts } from './settle-abandoned-attempts.use-case';

/**
 * One pass of the scheduler, safe with several replicas (rows are taken with SKIP LOCKED):
 * scheduled messages whose time has come become queued (a text whose window has closed fails instead),
 * retries whose backoff is over go back to a worker, and attempts whose worker died, or whose outcome is
 * unknown past the reconciliation window, are settled.
 */
export async function releaseDueMessages(
  deps: Parameters<typeof releaseScheduledMessages>[0] &
    Parameters<typeof requeueStrandedMessages>[0] &
    Parameters<typeof settleAbandonedAttempts>[0] &
    Parameters<typeof applyOrphanedReports>[0],
): Promise<number> {
  let released = 0;
  released += await releaseScheduledMessages(deps);
  released += await releaseDueRetries(deps);
  released += await requeueStrandedMessages(deps);
  await settleAbandonedAttempts(deps);
  released += await applyOrphanedReports(deps);
  return released;
}
