import type {
  ConversationReplyRequest,
  SendAcknowledgement,
  SendMessageRequest,
  SuccessEnvelope,
} from '@bm/contracts';
import type { IdempotentAnswer } from '@bm/platform';
import type { MessagingDeps } from '../messaging-deps';
import { sendMessage } from '../sending/send-message.use-case';
import { emitConversationChanged } from './conversation-events';
import { findConversation } from './find-conversation';

type SendDeps = Parameters<typeof sendMessage>[0];

/**
 * POST /api/v1/conversations/{id}/messages: a reply to the customer from the conversation's account, sent as any
 * single send is (POST /api/v1/messages/send: the window for a text, the template's checks, the message log and
 * its webhooks). Answers the send's acknowledgement.
 */
export async function replyToConversation(
  deps: SendDeps & Pick<MessagingDeps, 'conversations' | 'outbox'>,
  tenantId: number,
  id: string,
  reply: ConversationReplyRequest,
  idempotencyKey: string | undefined,
): Promise<IdempotentAnswer<SuccessEnvelope<SendAcknowledgement>>> {
  const conversation = await findConversation(deps, tenantId, id);
  // The customer by phone when it is known, else by user id, as a client's send would name them.
  const customer = conversation.customerPhone
    ? { phone: conversation.customerPhone }
    : { user_id: conversation.customerUserId ?? conversation.customerKey };
  const request: SendMessageRequest =
    reply.message_type === 'text'
      ? { channel_account_id: conversation.channelAccountId, ...customer, ...reply }
      : {
          channel_account_id: conversation.channelAccountId,
          ...customer,
          ...reply,
          auto_retry_on_frequency_cap: false,
        };
  const answer = await sendMessage(
    deps,
    tenantId,
    request,
    { conversation_id: id, ...reply },
    idempotencyKey,
  );
  // The reply itself reaches the inbox's stream from the send's statement (the message log knows its conversation).
  await deps.unitOfWork.inTransaction(async (tx) => {
    if (await deps.conversations.touchActivity(tx, conversation.id, new Date()))
      await emitConversationChanged(deps, tx, conversation.id);
  });
  return answer;
}
