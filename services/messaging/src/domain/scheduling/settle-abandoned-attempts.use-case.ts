import { changeStatus, type ChangeStatusDeps } from '../statuses/change-status';
import type { MessagingDeps } from '../messaging-deps';

/**
 * Attempts recorded but never finished. One its worker had recorded as still awaiting its throughput slot never
 * reached the upstream: once the worker is taken as dead it is sent again (its attempt count is kept, so the
 * stopped worker's claim, named by that count, can no longer be mistaken for the next one).
 *
 * Any other may have reached the upstream: its worker died in the call, or the call timed out or lost its
 * connection after the request was written. It stays queued while the upstream's status reports may still name
 * its attempt (reconcileSendAttempts gives it the report's wamid and status). When none did within the
 * reconciliation window, counted from the attempt's start and never shorter than a live call may take, the
 * policy settles it: `fail` (sending again could reach the customer twice), or `resend`, once: a second unknown
 * outcome fails.
 */
type SettleDeps = ChangeStatusDeps & Pick<MessagingDeps, 'unitOfWork' | 'sweeps' | 'logger'>;

/** How long an attempt may stay unfinished before this sweep settles it (the scheduler wakes for that moment). */
export function settleWindowMs(config: SettleDeps['config']): number {
  return Math.max(config.UNKNOWN_OUTCOME_WINDOW_MS, config.UPSTREAM_TIMEOUT_MS + config.ATTEMPT_GRACE_MS);
}

/** Answers how many attempts it settled (sent again or failed), so the scheduler's next pass comes soon. */
export async function settleAbandonedAttempts(deps: SettleDeps): Promise<number> {
  const { UPSTREAM_TIMEOUT_MS, ATTEMPT_GRACE_MS, UNKNOWN_OUTCOME_POLICY } = deps.config;
  const graceMs = UPSTREAM_TIMEOUT_MS + ATTEMPT_GRACE_MS;
  const resent = await deps.sweeps.releaseUnfinishedAttempts('awaiting slot', graceMs);
  if (resent > 0)
    deps.logger.warn('messages a stopped worker held before their slot sent again', { count: resent });
  const windowMs = settleWindowMs(deps.config);
  let again = 0;
  if (UNKNOWN_OUTCOME_POLICY === 'resend') {
    again = await deps.sweeps.releaseUnfinishedAttempts('unknown outcome, not resent', windowMs);
    if (again > 0)
      deps.logger.warn('sends of unknown outcome without a status report sent again (policy resend)', {
        count: again,
      });
  }
  return resent + again + (await failUnknownOutcomes(deps, windowMs));
}

/** Fails the sends of unknown outcome whose window ran out (after their one resend, under `resend`). */
async function failUnknownOutcomes(deps: SettleDeps, windowMs: number): Promise<number> {
  return deps.unitOfWork.inTransaction(async (tx) => {
    const rows = await deps.sweeps.lockUnknownOutcomes(tx, windowMs);
    const resend = deps.config.UNKNOWN_OUTCOME_POLICY === 'resend';
    for (const message of rows) {
      await changeStatus(deps, tx, message, {
        status: 'failed',
        errorMessage: resend
          ? 'send outcome unknown: no status report from the upstream for the send nor for its one resend'
          : 'send outcome unknown: no status report from the upstream within the reconciliation window; not resent to avoid a duplicate',
      });
    }
    if (rows.length > 0)
      deps.logger.warn('sends of unknown outcome without a status report failed', { count: rows.length });
    return rows.length;
  });
}
