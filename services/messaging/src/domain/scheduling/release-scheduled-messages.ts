import type { EntityManager } from 'typeorm';
import type { MessageLog } from '../../data-access/message-log.repository';
import { inSavepoint } from '../../data-access/savepoint';
import { enqueueDelivery } from '../emit-event';
import type { MessagingDeps } from '../messaging-deps';
import { failIfWindowClosed } from '../sending/service-window';

/** Scheduled messages whose time has come become queued (a text whose window has closed fails instead). */
export async function releaseScheduledMessages(deps: MessagingDeps): Promise<number> {
  return deps.dataSource.transaction(async (tx) => {
    const messages = await deps.sweeps.lockDueScheduled(tx);
    let done = 0;
    for (const message of messages) {
      // Each message behind a savepoint: one that cannot be released stays scheduled, logged, and the others go.
      const released = await inSavepoint(tx, 'release', () => releaseScheduled(deps, tx, message));
      if (released.done) {
        done += 1;
        continue;
      }
      deps.logger.warn('scheduled message not released; the next pass tries it again', {
        message_log_id: message.id,
        error: (released.error as Error).message,
      });
    }
    return done;
  });
}

/** A scheduled message whose time has come: queued for a worker, or failed when a text's window has closed. */
async function releaseScheduled(deps: MessagingDeps, tx: EntityManager, message: MessageLog): Promise<void> {
  if (await failIfWindowClosed(deps, tx, message)) return;
  await deps.messages.transition(tx, message.id, ['scheduled'], { status: 'queued' });
  await enqueueDelivery(tx, message.id);
}
