import { paginationOf, type ConversationList, type ListConversationsQuery } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';
import { toConversationDto } from './conversation.dto';

/** GET /api/v1/conversations: the tenant's conversations, newest activity first, filtered and searched. */
export async function listConversations(
  deps: Pick<MessagingDeps, 'conversations'>,
  tenantId: number,
  query: ListConversationsQuery,
): Promise<ConversationList> {
  const { rows, total } = await deps.conversations.list(tenantId, query);
  const now = new Date();
  return {
    conversations: rows.map((c) => toConversationDto(c, now)),
    pagination: paginationOf(total, query.page, query.per_page),
  };
}
