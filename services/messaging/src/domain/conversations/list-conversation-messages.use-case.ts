import type { ConversationMessages, ConversationMessagesQuery } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';
import { toConversationMessageDto } from './conversation.dto';
import { findConversation } from './find-conversation';
import { decodeCursor, encodeCursor, newestFirst } from './thread-cursor';

/**
 * GET /api/v1/conversations/{id}/messages: the thread's latest `limit` messages older than `before`, both
 * directions, oldest first. Each direction gives its own latest `limit`; the page is the newest `limit` of both.
 */
export async function listConversationMessages(
  deps: Pick<MessagingDeps, 'conversations'>,
  tenantId: number,
  id: string,
  query: ConversationMessagesQuery,
): Promise<ConversationMessages> {
  const before = query.before === undefined ? undefined : decodeCursor(query.before);
  const conversation = await findConversation(deps, tenantId, id);
  const entries = await deps.conversations.thread(conversation, before, query.limit + 1);
  entries.sort(newestFirst);
  const page = entries.slice(0, query.limit);
  const more = entries.length > query.limit;
  return {
    messages: page.reverse().map(toConversationMessageDto),
    next_before: more && page.length > 0 ? encodeCursor(page[0]) : null,
  };
}
