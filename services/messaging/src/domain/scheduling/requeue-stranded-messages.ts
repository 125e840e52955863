import { queryRows } from '@bm/platform';
import { enqueueDelivery } from '../emit-event';
import type { MessagingDeps } from '../messaging-deps';
import { RELEASE_BATCH } from './release-batch';

/**
 * A queued message whose delivery command was lost (dead-lettered while the database was away, say) would wait
 * for ever: after STRANDED_AFTER_MS without progress it gets a new command. A duplicate command is harmless,
 * the claim lets only one through.
 */
export async function requeueStrandedMessages(deps: MessagingDeps): Promise<number> {
  return deps.dataSource.transaction(async (tx) => {
    const rows = await queryRows<{ id: string }>(
      tx,
      `UPDATE messaging.message_logs SET updated_at = now()
        WHERE id IN (SELECT id FROM messaging.message_logs
                      WHERE status = 'queued' AND attempt_started_at IS NULL AND next_attempt_at IS NULL
                        AND updated_at < now() - $1 * interval '1 millisecond'
                      LIMIT ${RELEASE_BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [deps.config.STRANDED_AFTER_MS],
    );
    for (const row of rows) await enqueueDelivery(tx, Number(row.id));
    if (rows.length > 0)
      deps.logger.warn('queued messages without a delivery command requeued', { count: rows.length });
    return rows.length;
  });
}
