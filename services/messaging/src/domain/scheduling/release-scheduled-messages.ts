import type { MessagingDeps } from '../messaging-deps';
import type { Tx } from '../ports/unit-of-work.port';
import { failIfWindowClosed } from '../sending/service-window';
import type { ChangeStatusDeps } from '../statuses/change-status';
import type { MessageLog } from '../ports/message-log.port';
import { emitConversationMessage } from '../conversations/conversation-events';
import { toOutboundMessageDto } from '../conversations/conversation.dto';

type ReleaseDeps = ChangeStatusDeps & Pick<MessagingDeps, 'customers'>;

/** Scheduled messages whose time has come become queued (a text whose window has closed fails instead). */
export async function releaseScheduledMessages(
  deps: ReleaseDeps & Pick<MessagingDeps, 'unitOfWork' | 'sweeps' | 'logger'>,
): Promise<number> {
  return deps.unitOfWork.inTransaction(async (tx) => {
    const messages = await deps.sweeps.lockDueScheduled(tx);
    let done = 0;
    for (const message of messages) {
      // Each message behind a savepoint: one that cannot be released stays scheduled, logged, and the others go.
      const released = await deps.unitOfWork.inSavepoint(tx, 'release', () =>
        releaseScheduled(deps, tx, message),
      );
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
async function releaseScheduled(deps: ReleaseDeps, tx: Tx, message: MessageLog): Promise<void> {
  if (await failIfWindowClosed(deps, tx, message)) return;
  const queued = await deps.messages.moveTo(tx, message.id, ['scheduled'], {
    status: 'queued',
    at: new Date(),
  });
  // A scheduled reply now queued: the inbox shows its new status.
  if (queued?.conversationId)
    await emitConversationMessage(
      deps,
      tx,
      queued.tenantId,
      queued.conversationId,
      toOutboundMessageDto(queued),
    );
  await deps.outbox.deliver(tx, [{ id: message.id }]);
}
