import { changeStatus, type ChangeStatusDeps } from '../statuses/change-status';
import type { MessagingDeps } from '../messaging-deps';

/**
 * Attempts recorded but never finished. One its worker had recorded as still awaiting its throughput slot never
 * reached the upstream: once the worker is taken as dead it is sent again (its attempt count is kept, so the
 * stopped worker's claim, named by that count, can no longer be mistaken for the next one). A worker is taken as
 * dead as soon as its lease lapses (SEND_WORKER_LEASE_MS); a claim that names no worker (made by a replica older
 * than the leases) when the longest call and a grace have passed since it.
 *
 * Any other may have reached the upstream: its worker died in the call, or the call timed out or lost its
 * connection after the request was written. It stays queued while the upstream's status reports may still name
 * its attempt (planStatusReports gives it the report's wamid and status). The upstream reports what it took
 * within seconds: once the number's reports have come past it (a send of the same number answered more than the
 * longest call and REPORT_ORDER_MARGIN_MS after it started has been reported) and none named it, the upstream never
 * took it, and it is sent again at once with its next attempt number; for a worker whose lease lapsed, a send
 * answered REPORT_ORDER_MARGIN_MS after it is enough (no call of that worker is still running). While no report of the number comes at all
 * (ingress, the broker or the upstream's webhooks away), nothing is decided. When the reconciliation window ends
 * with no evidence either way, the policy settles it: `resend`, once (a second unknown outcome fails), or `fail`.
 */
type SettleDeps = ChangeStatusDeps & Pick<MessagingDeps, 'unitOfWork' | 'sweeps' | 'logger'>;

/** How long an attempt may stay unfinished before the window settles it. */
export function settleWindowMs(config: SettleDeps['config']): number {
  return Math.max(config.UNKNOWN_OUTCOME_WINDOW_MS, config.UPSTREAM_TIMEOUT_MS + config.ATTEMPT_GRACE_MS);
}

/** How long after its start an unfinished attempt can be refuted by its number's reports: past any live call. */
export function refutableAfterMs(config: SettleDeps['config']): number {
  return config.UPSTREAM_TIMEOUT_MS + config.REPORT_ORDER_MARGIN_MS;
}

/** Answers how many attempts it settled (sent again or failed), so the scheduler's next pass comes soon. */
export async function settleAbandonedAttempts(deps: SettleDeps): Promise<number> {
  const { UPSTREAM_TIMEOUT_MS, ATTEMPT_GRACE_MS, UNKNOWN_OUTCOME_POLICY } = deps.config;
  const graceMs = UPSTREAM_TIMEOUT_MS + ATTEMPT_GRACE_MS;
  // Claims of a worker whose lease lapsed are taken over at once, without waiting out the longest call.
  const orphaned = await deps.sweeps.releaseOrphanedClaims(deps.config.REPORT_ORDER_MARGIN_MS);
  if (orphaned.awaitingSlot + orphaned.refuted > 0)
    deps.logger.warn('claims of a worker whose lease lapsed taken over, sent again', {
      awaiting_slot: orphaned.awaitingSlot,
      refuted_by_reports: orphaned.refuted,
    });
  const resent = await deps.sweeps.releaseUnfinishedAttempts('awaiting slot', graceMs);
  if (resent > 0)
    deps.logger.warn('messages a stopped worker held before their slot sent again', { count: resent });
  const refutedAfter = refutableAfterMs(deps.config);
  const refuted = await deps.sweeps.releaseRefutedAttempts(refutedAfter, refutedAfter);
  if (refuted > 0)
    deps.logger.warn(
      'sends the upstream never took (its reports of their number came past them) sent again',
      {
        count: refuted,
      },
    );
  const windowMs = settleWindowMs(deps.config);
  let again = 0;
  if (UNKNOWN_OUTCOME_POLICY === 'resend') {
    again = await deps.sweeps.releaseUnfinishedAttempts('unknown outcome, not resent', windowMs);
    if (again > 0)
      deps.logger.warn('sends of unknown outcome without a status report sent again (policy resend)', {
        count: again,
      });
  }
  const takenOver = orphaned.awaitingSlot + orphaned.refuted;
  return takenOver + resent + refuted + again + (await failUnknownOutcomes(deps, windowMs));
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
