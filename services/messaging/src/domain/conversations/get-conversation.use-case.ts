import type { ConversationDto } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';
import { toConversationDto } from './conversation.dto';
import { findConversation } from './find-conversation';

/** GET /api/v1/conversations/{id}: the customer, their window, status, assignee and unread count. */
export async function getConversation(
  deps: Pick<MessagingDeps, 'conversations'>,
  tenantId: number,
  id: string,
): Promise<ConversationDto> {
  return toConversationDto(await findConversation(deps, tenantId, id));
}
