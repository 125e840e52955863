import { isUserIdAddress, type InboundMessageItem } from '@bm/contracts';
import { requestLiveChat, type CustomerMessage } from '../flows/flow-session-events';
import type { MessagingDeps } from '../messaging-deps';
import { routeInboundToFlow } from '../flows/route-inbound-to-flow.use-case';
import type { FlowRunDeps } from '../flows/advance-flow-session';
import { learnCustomer } from '../customers/customer-address';
import { inboundContentOf } from '../conversations/inbound-content';
import { emitConversationChanged, emitConversationMessage } from '../conversations/conversation-events';
import { toConversationMessageDto } from '../conversations/conversation.dto';

/** The upstream's `type` of a message that tells of a customer's change of address, not written by them. */
const SYSTEM_MESSAGE = 'system';

/**
 * A customer's message: stored once (by its upstream id), opens or extends the 24 h service window, is passed
 * on as `message.received`, and goes through the conversation flows; one no flow takes asks for a person
 * (a live-chat request). A customer is known by phone or, when the upstream gives none (a customer with a
 * username), by user id: never dropped for lack of a phone. Returns false for a duplicate or an unknown number: a
 * duplicate advances no session.
 */
export async function recordInboundMessage(
  deps: FlowRunDeps & Pick<MessagingDeps, 'unitOfWork' | 'accounts' | 'inbound' | 'flows' | 'conversations'>,
  item: InboundMessageItem,
): Promise<boolean> {
  const account = item.phone_number_id
    ? await deps.accounts.findByPhoneNumberId(item.phone_number_id)
    : undefined;
  if (!account) {
    deps.logger.warn('inbound message for an unknown number', {
      phone_number_id: item.phone_number_id,
      waba_id: item.waba_id,
    });
    return false;
  }
  const phone = item.from ? item.from.replace(/\D/g, '') : null;
  const userId = item.from_user_id ?? null;
  const at = new Date(item.occurred_at);
  return deps.unitOfWork.inTransaction(async (tx) => {
    const inserted = await deps.inbound.insert(tx, {
      providerMessageId: item.message_id,
      tenantId: account.tenantId,
      channelAccountId: account.id,
      fromPhone: phone,
      fromUserId: userId,
      username: item.username ?? null,
      type: item.type,
      body: item.raw,
      receivedAt: at,
      arrivalId: item.event_id,
    });
    if (!inserted) return false;
    // The customer's phone, else (a customer with a username may come without one) the phone their user id is
    // linked to, else their user id: the key of their service window and of their live-chat requests.
    const from = await learnCustomer(deps, tx, account, item);
    // A change of the customer's address (user_changed_number, user_changed_user_id) is no customer message: no
    // message.received, no window, no flow step.
    if (item.type === SYSTEM_MESSAGE) return true;
    // Into the customer's conversation on this account; a closed one stays closed unless no flow answers.
    const conversationId = await deps.conversations.touchForInbound(tx, {
      tenantId: account.tenantId,
      channelAccountId: account.id,
      customerKey: from,
      phone: phone ?? (isUserIdAddress(from) ? null : from),
      userId,
      name: item.name,
      username: item.username ?? null,
      messageId: item.message_id,
      text: inboundContentOf(item.type, item.raw).text ?? item.text,
      at,
    });
    const newConversation = !(await deps.customers.isWindowOpen(tx, account.id, from));
    await deps.customers.touchWindow(tx, account.id, from, at);
    await deps.outbox.emit(tx, 'message.received', account.tenantId, {
      channel_account_id: account.id,
      from: phone,
      from_user_id: userId,
      username: item.username ?? null,
      name: item.name,
      message_id: item.message_id,
      type: item.type,
      text: item.text,
      media: item.media,
      // When the customer wrote it and when we received it: the campaign service keeps their latest STOP or START.
      written_at: item.occurred_at,
      received_at: item.received_at ?? item.occurred_at,
    });
    // The phone flows answer at: the one the message names, else the one the user id is linked to.
    const knownPhone = phone ?? (isUserIdAddress(from) ? null : from);
    const message: CustomerMessage = {
      account,
      from,
      phone: knownPhone,
      userId,
      name: item.name,
      messageId: item.message_id,
      text: item.text,
      at,
    };
    // Flow sessions and their replies are kept by phone: a customer known by user id only goes to a person.
    const routed =
      knownPhone !== null && (await routeInboundToFlow(deps, tx, message, item, newConversation));
    if (!routed) await requestLiveChat(deps, tx, message, null);
    // The inbox's stream: the customer's message, then their conversation as this message left it (a flow's
    // hand-off or a live-chat request may have reopened it).
    await emitConversationMessage(
      deps,
      tx,
      account.tenantId,
      conversationId,
      toConversationMessageDto({
        direction: 'inbound',
        providerMessageId: item.message_id,
        orderKey: `${item.event_id ?? ''}:${item.message_id}`,
        type: item.type,
        body: item.raw,
        at,
        atMicros: 0n,
      }),
    );
    await emitConversationChanged(deps, tx, conversationId);
    return true;
  });
}
