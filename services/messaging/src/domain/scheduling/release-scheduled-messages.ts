import type { EntityManager } from 'typeorm';
import { toMessageLog } from '../../data-access/message-log.repository';
import { enqueueDelivery } from '../emit-event';
import type { MessagingDeps } from '../messaging-deps';
import { failIfWindowClosed } from '../sending/service-window';
import { RELEASE_BATCH } from './release-batch';

/** Scheduled messages whose time has come become queued (a text whose window has closed fails instead). */
export async function releaseScheduledMessages(deps: MessagingDeps): Promise<number> {
  return deps.dataSource.transaction(async (tx) => {
    const rows: Parameters<typeof toMessageLog>[0][] = await tx.query(
      `SELECT * FROM messaging.message_logs WHERE status = 'scheduled' AND scheduled_at <= now()
        ORDER BY scheduled_at LIMIT ${RELEASE_BATCH} FOR UPDATE SKIP LOCKED`,
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
}

/** A scheduled message whose time has come: queued for a worker, or failed when a text's window has closed. */
async function releaseScheduled(
  deps: MessagingDeps,
  tx: EntityManager,
  message: ReturnType<typeof toMessageLog>,
): Promise<void> {
  if (await failIfWindowClosed(deps, tx, message)) return;
  await deps.messages.transition(tx, message.id, ['scheduled'], { status: 'queued' });
  await enqueueDelivery(tx, message.id);
}
