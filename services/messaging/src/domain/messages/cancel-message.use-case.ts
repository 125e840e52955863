import type { MessageLogDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { MessagingDeps } from '../messaging-deps';
import { changeStatus, type ChangeStatusDeps } from '../statuses/change-status';
import { messageIdOf } from './message-id';
import { toMessageLogDto } from './message-log.dto';

/** POST /api/v1/messages/{id}/cancel: only a message still scheduled can be cancelled. */
export async function cancelMessage(
  deps: ChangeStatusDeps & Pick<MessagingDeps, 'unitOfWork' | 'reader'>,
  tenantId: number,
  rawId: string,
): Promise<MessageLogDto> {
  const id = messageIdOf(rawId);
  return deps.unitOfWork.inTransaction(async (tx) => {
    const message = await deps.reader.findById(tx, id, { lock: true });
    if (!message || message.tenantId !== tenantId) throw new AppError('MESSAGE_NOT_FOUND');
    if (message.status !== 'scheduled') {
      throw new AppError('MESSAGE_NOT_CANCELLABLE', undefined, { status: message.status });
    }
    const cancelled = await changeStatus(deps, tx, message, { status: 'cancelled' });
    return toMessageLogDto(cancelled ?? message);
  });
}
