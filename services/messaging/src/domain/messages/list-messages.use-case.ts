import {
  paginationOf,
  type ListMessagesQuery,
  type MessageFilterQuery,
  type MessageListDto,
} from '@bm/contracts';
import type { MessageListFilter } from '../ports/message-log.port';
import type { MessagingDeps } from '../messaging-deps';
import { toMessageLogDto } from './message-log.dto';

/** The list's query filters as the reader takes them (the export shares them). */
export function messageFilterOf(query: MessageFilterQuery): MessageListFilter {
  return {
    messageId: query.message_id,
    wamid: query.wamid,
    status: query.status,
    toPhone: query.to_phone,
    toUserId: query.to_user_id,
    campaignId: query.campaign_id,
    channelAccountId: query.channel_account_id,
    messageType: query.message_type,
    createdFrom: query.created_from,
    createdTo: query.created_to,
  };
}

/** GET /api/v1/messages: the sent list, newest first. */
export async function listMessages(
  deps: Pick<MessagingDeps, 'reader'>,
  tenantId: number,
  query: ListMessagesQuery,
): Promise<MessageListDto> {
  const { items, total } = await deps.reader.list(
    tenantId,
    messageFilterOf(query),
    query.page,
    query.per_page,
  );
  return {
    messages: items.map(toMessageLogDto),
    pagination: paginationOf(total, query.page, query.per_page),
  };
}
