import type { ConversationMessageDto } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';
import type { Conversation } from '../ports/conversation.port';
import type { Tx } from '../ports/unit-of-work.port';
import { toConversationDto } from './conversation.dto';

/*
 * The inbox's events, written to the outbox in the transaction of the change: the gateway keeps them for the
 * browsers' event streams (GET /api/v1/conversations/events). Messages sent or moved by the send path's
 * statements get theirs from those statements (data-access/conversation-events-sql.ts).
 */

type EventDeps = Pick<MessagingDeps, 'conversations' | 'outbox'>;

/** `conversation.changed`: the conversation as the transaction leaves it; the conversation, or undefined. */
export async function emitConversationChanged(
  deps: EventDeps,
  tx: Tx,
  conversationId: string,
): Promise<Conversation | undefined> {
  const conversation = await deps.conversations.findInTx(tx, conversationId);
  if (conversation)
    await deps.outbox.emit(tx, 'conversation.changed', conversation.tenantId, {
      conversation: toConversationDto(conversation),
    });
  return conversation;
}

/** `conversation.message`: a new message of the conversation, or a new status of one of ours. */
export async function emitConversationMessage(
  deps: Pick<MessagingDeps, 'outbox'>,
  tx: Tx,
  tenantId: number,
  conversationId: string,
  message: ConversationMessageDto,
): Promise<void> {
  await deps.outbox.emit(tx, 'conversation.message', tenantId, { conversation_id: conversationId, message });
}
