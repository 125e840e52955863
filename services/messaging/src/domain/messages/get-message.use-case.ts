import type { MessageLogDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { MessagingDeps } from '../messaging-deps';
import { messageIdOf } from './message-id';
import { toMessageLogDto } from './message-log.dto';

/** GET /api/v1/messages/{id}: the tenant's message; another tenant's is 404 like an unknown one. */
export async function getMessage(
  deps: Pick<MessagingDeps, 'reader'>,
  tenantId: number,
  rawId: string,
): Promise<MessageLogDto> {
  const message = await deps.reader.findForTenant(messageIdOf(rawId), tenantId);
  if (!message) throw new AppError('MESSAGE_NOT_FOUND');
  return toMessageLogDto(message);
}
