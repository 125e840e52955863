import { ulidSchema } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { MessagingDeps } from '../messaging-deps';
import type { Conversation } from '../ports/conversation.port';

/** The tenant's conversation of that id; an unknown, malformed or another tenant's id is 404 NOT_FOUND. */
export async function findConversation(
  deps: Pick<MessagingDeps, 'conversations'>,
  tenantId: number,
  id: string,
): Promise<Conversation> {
  const conversation = ulidSchema.validate(id).error
    ? undefined
    : await deps.conversations.find(tenantId, id);
  if (!conversation) throw new AppError('NOT_FOUND', 'Conversation not found');
  return conversation;
}
