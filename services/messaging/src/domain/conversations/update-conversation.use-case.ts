import type { ConversationDto, UpdateConversationRequest } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { MessagingDeps } from '../messaging-deps';
import { toConversationDto } from './conversation.dto';
import { emitConversationChanged } from './conversation-events';
import { findConversation } from './find-conversation';

/** PATCH /api/v1/conversations/{id}: open or close it, assign it to one of the tenant's dashboard users or none. */
export async function updateConversation(
  deps: Pick<MessagingDeps, 'conversations' | 'dashboardUsers' | 'outbox' | 'unitOfWork'>,
  tenantId: number,
  id: string,
  request: UpdateConversationRequest,
): Promise<ConversationDto> {
  await findConversation(deps, tenantId, id);
  if (request.assignee && !(await deps.dashboardUsers.isTenantUser(tenantId, request.assignee))) {
    throw new AppError('VALIDATION_ERROR', undefined, {
      errors: [{ field: 'assignee', message: '"assignee" is not a dashboard user of this tenant' }],
    });
  }
  const updated = await deps.unitOfWork.inTransaction(async (tx) => {
    if (!(await deps.conversations.update(tx, tenantId, id, request))) return undefined;
    return emitConversationChanged(deps, tx, id);
  });
  if (!updated) throw new AppError('NOT_FOUND', 'Conversation not found');
  return toConversationDto(updated);
}
