import type { ConversationRead } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { MessagingDeps } from '../messaging-deps';
import { toConversationDto } from './conversation.dto';
import { emitConversationChanged } from './conversation-events';
import { findConversation } from './find-conversation';

/**
 * POST /api/v1/conversations/{id}/read: no unread messages left for the tenant, and the upstream read receipt
 * for the customer's latest message. The mark stands when the upstream refuses the receipt; the answer says so.
 */
export async function markConversationRead(
  deps: Pick<
    MessagingDeps,
    'conversations' | 'accounts' | 'upstream' | 'secrets' | 'logger' | 'outbox' | 'unitOfWork'
  >,
  tenantId: number,
  id: string,
): Promise<ConversationRead> {
  const conversation = await findConversation(deps, tenantId, id);
  const marked = await deps.unitOfWork.inTransaction(async (tx) => {
    if (!(await deps.conversations.markRead(tx, tenantId, id))) return undefined;
    return emitConversationChanged(deps, tx, id);
  });
  if (!marked) throw new AppError('NOT_FOUND', 'Conversation not found');
  const messageId = await deps.conversations.latestInboundMessageId(conversation.id);
  if (!messageId) return { conversation: toConversationDto(marked), receipt: null };
  const account = await deps.accounts.findById(conversation.channelAccountId);
  if (!account) throw new AppError('NOT_FOUND', 'Conversation not found');
  const answer = await deps.upstream.markRead(
    account.phoneNumberId,
    deps.secrets.open(account.accessTokenSealed),
    messageId,
  );
  if (!answer.ok) deps.logger.warn('read receipt refused', { conversation_id: id, error: answer.message });
  return {
    conversation: toConversationDto(marked),
    receipt: { message_id: messageId, sent: answer.ok, error: answer.ok ? null : answer.message },
  };
}
