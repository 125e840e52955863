import { paginationOf, type ListMessagesQuery, type MessageListDto, type MessageLogDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { changeStatus } from './change-status';
import { toMessageLogDto } from './message-log.dto';
import type { MessagingDeps } from './messaging-deps';

/** Parses a path id; anything but a positive integer is as unknown as a missing message. */
export function messageIdOf(raw: string): number {
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new AppError('MESSAGE_NOT_FOUND');
  return id;
}

/** GET /api/v1/messages/{id}: the tenant's message; another tenant's is 404 like an unknown one. */
export async function getMessage(
  deps: MessagingDeps,
  tenantId: number,
  rawId: string,
): Promise<MessageLogDto> {
  const message = await deps.messages.findForTenant(messageIdOf(rawId), tenantId);
  if (!message) throw new AppError('MESSAGE_NOT_FOUND');
  return toMessageLogDto(message);
}

/** GET /api/v1/messages: the sent list, newest first. */
export async function listMessages(
  deps: MessagingDeps,
  tenantId: number,
  query: ListMessagesQuery,
): Promise<MessageListDto> {
  const { items, total } = await deps.messages.list(
    tenantId,
    {
      status: query.status,
      toPhone: query.to_phone,
      campaignId: query.campaign_id,
      channelAccountId: query.channel_account_id,
      messageType: query.message_type,
      createdFrom: query.created_from,
      createdTo: query.created_to,
    },
    query.page,
    query.per_page,
  );
  return {
    messages: items.map(toMessageLogDto),
    pagination: paginationOf(total, query.page, query.per_page),
  };
}

/** POST /api/v1/messages/{id}/cancel: only a message still scheduled can be cancelled. */
export async function cancelMessage(
  deps: MessagingDeps,
  tenantId: number,
  rawId: string,
): Promise<MessageLogDto> {
  const id = messageIdOf(rawId);
  return deps.dataSource.transaction(async (tx) => {
    const message = await deps.messages.findById(tx, id, { lock: true });
    if (!message || message.tenantId !== tenantId) throw new AppError('MESSAGE_NOT_FOUND');
    if (message.status !== 'scheduled') {
      throw new AppError('MESSAGE_NOT_CANCELLABLE', undefined, { status: message.status });
    }
    const cancelled = await changeStatus(deps, tx, message, { status: 'cancelled' });
    return toMessageLogDto(cancelled ?? message);
  });
}
