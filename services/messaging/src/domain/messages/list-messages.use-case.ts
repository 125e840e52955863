import { paginationOf, type ListMessagesQuery, type MessageListDto } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';
import { toMessageLogDto } from './message-log.dto';

/** GET /api/v1/messages: the sent list, newest first. */
export async function listMessages(
  deps: Pick<MessagingDeps, 'reader'>,
  tenantId: number,
  query: ListMessagesQuery,
): Promise<MessageListDto> {
  const { items, total } = await deps.reader.list(
    tenantId,
    {
      status: query.status,
      toPhone: query.to_phone,
      toUserId: query.to_user_id,
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
