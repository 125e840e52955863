import { queryRows } from '@bm/platform';
import { enqueueDelivery } from '../emit-event';
import type { MessagingDeps } from '../messaging-deps';
import { RELEASE_BATCH } from './release-batch';

/** Retries whose backoff is over (a transient upstream failure) go back to a worker. */
export async function releaseDueRetries(deps: MessagingDeps): Promise<number> {
  return deps.dataSource.transaction(async (tx) => {
    const rows = await queryRows<{ id: string }>(
      tx,
      `UPDATE messaging.message_logs SET next_attempt_at = NULL, updated_at = now()
        WHERE id IN (SELECT id FROM messaging.message_logs
                      WHERE status = 'queued' AND attempt_started_at IS NULL AND next_attempt_at <= now()
                      LIMIT ${RELEASE_BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING id`,
    );
    for (const row of rows) await enqueueDelivery(tx, Number(row.id));
    return rows.length;
  });
}
