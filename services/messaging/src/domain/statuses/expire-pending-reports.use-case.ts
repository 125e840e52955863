import type { MessagingDeps } from '../messaging-deps';

const BATCH = 1000;

/**
 * Deletes the status reports kept for a provider id no message ever got (a message sent by another client of the
 * number, say) once they are PENDING_REPORT_RETENTION_HOURS old, a batch at a time so no statement holds many
 * rows; answers how many went.
 */
export async function expirePendingReports(
  deps: Pick<MessagingDeps, 'config' | 'statusReports'>,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const n = await deps.statusReports.deleteExpiredPendingReports(
      deps.config.PENDING_REPORT_RETENTION_HOURS,
      BATCH,
    );
    deleted += n;
    if (n < BATCH) return deleted;
  }
}
