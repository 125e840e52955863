import type { EntityManager } from 'typeorm';
import { queryRows } from '@bm/platform';
import { toMessageLog } from '../data-access/message-log.repository';
import { applyOrphanedReports } from './apply-status-report.use-case';
import { changeStatus } from './change-status';
import { enqueueDelivery } from './emit-event';
import type { MessagingDeps } from './messaging-deps';
import { settleAbandonedAttempts } from './settle-abandoned-attempts.use-case';

const BATCH = 500;

/**
 * One pass of the scheduler, safe with several replicas (rows are taken with SKIP LOCKED):
 * scheduled messages whose time has come become queued (a text whose window has closed fails instead),
 * retries whose backoff is over go back to a worker, and attempts whose worker died, or whose outcome is
 * unknown past the reconciliation window, are settled.
 */
export async function releaseDueMessages(deps: MessagingDeps): Promise<number> {
  let released = 0;
  released += await deps.dataSource.transaction(async (tx) => {
    const rows: Parameters<typeof toMessageLog>[0][] = await tx.query(
      `SELECT * FROM messaging.message_logs WHERE status = 'scheduled' AND scheduled_at <= now()
        ORDER BY scheduled_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
    );
    let done = 0;
    for (const message of rows.map(toMessageLog)) {
      // Each message behind a savepoint: one that cannot be released stays scheduled, logged, and the others go.
      await tx.query('SAVEPOINT release');
      try {
        await releaseScheduled(deps, tx, message);
        await tx.query('RELEASE SAVEPOINT release');
        done += 1;
      } catch (err) {
        await tx.query('ROLLBACK TO SAVEPOINT release');
        deps.logger.warn('scheduled message not released; the next pass tries it again', {
          message_log_id: message.id,
          error: (err as Error).message,
        });
      }
    }
    return done;
  });
  released += await deps.dataSource.transaction(async (tx) => {
    const rows = await queryRows<{ id: string }>(
      tx,
      `UPDATE messaging.message_logs SET next_attempt_at = NULL, updated_at = now()
        WHERE id IN (SELECT id FROM messaging.message_logs
                      WHERE status = 'queued' AND attempt_started_at IS NULL AND next_attempt_at <= now()
                      LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING id`,
    );
    for (const row of rows) await enqueueDelivery(tx, Number(row.id));
    return rows.length;
  });
  released += await requeueStranded(deps);
  await settleAbandonedAttempts(deps);
  await applyOrphanedReports(deps);
  return released;
}

/** A scheduled message whose time has come: queued for a worker, or failed when a text's window has closed. */
async function releaseScheduled(
  deps: MessagingDeps,
  tx: EntityManager,
  message: ReturnType<typeof toMessageLog>,
): Promise<void> {
  if (
    message.messageType === 'text' &&
    !(await deps.customers.isWindowOpen(tx, message.channelAccountId, message.toPhone))
  ) {
    await changeStatus(deps, tx, message, {
      status: 'failed',
      errorMessage:
        "OUTSIDE_SERVICE_WINDOW: the customer's last message is older than 24 hours at the scheduled time",
    });
    return;
  }
  await deps.messages.transition(tx, message.id, ['scheduled'], { status: 'queued' });
  await enqueueDelivery(tx, message.id);
}

/**
 * A queued message whose delivery command was lost (dead-lettered while the database was away, say) would wait
 * for ever: after STRANDED_AFTER_MS without progress it gets a new command. A duplicate command is harmless,
 * the claim lets only one through.
 */
async function requeueStranded(deps: MessagingDeps): Promise<number> {
  return deps.dataSource.transaction(async (tx) => {
    const rows = await queryRows<{ id: string }>(
      tx,
      `UPDATE messaging.message_logs SET updated_at = now()
        WHERE id IN (SELECT id FROM messaging.message_logs
                      WHERE status = 'queued' AND attempt_started_at IS NULL AND next_attempt_at IS NULL
                        AND updated_at < now() - $1 * interval '1 millisecond'
                      LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [deps.config.STRANDED_AFTER_MS],
    );
    for (const row of rows) await enqueueDelivery(tx, Number(row.id));
    if (rows.length > 0)
      deps.logger.warn('queued messages without a delivery command requeued', { count: rows.length });
    return rows.length;
  });
}
