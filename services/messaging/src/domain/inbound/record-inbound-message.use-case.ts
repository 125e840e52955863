import type { InboundMessageItem } from '@bm/contracts';
import { requestLiveChat, type CustomerMessage } from '../flows/flow-session-events';
import type { MessagingDeps } from '../messaging-deps';
import { routeInboundToFlow } from '../flows/route-inbound-to-flow.use-case';
import type { FlowRunDeps } from '../flows/advance-flow-session';

/**
 * A customer's message: stored once (by its upstream id), opens or extends the 24 h service window, is passed
 * on as `message.received`, and goes through the conversation flows; one no flow takes asks for a person
 * (a live-chat request). Returns false for a duplicate or an unknown number: a duplicate advances no session.
 */
export async function recordInboundMessage(
  deps: FlowRunDeps & Pick<MessagingDeps, 'unitOfWork' | 'accounts' | 'inbound' | 'flows'>,
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
  const from = item.from.replace(/\D/g, '');
  const at = new Date(item.occurred_at);
  return deps.unitOfWork.inTransaction(async (tx) => {
    const inserted = await deps.inbound.insert(tx, {
      providerMessageId: item.message_id,
      tenantId: account.tenantId,
      channelAccountId: account.id,
      fromPhone: from,
      type: item.type,
      body: item.raw,
      receivedAt: at,
    });
    if (!inserted) return false;
    const newConversation = !(await deps.customers.isWindowOpen(tx, account.id, from));
    await deps.customers.touchWindow(tx, account.id, from, at);
    await deps.outbox.emit(tx, 'message.received', account.tenantId, {
      channel_account_id: account.id,
      from,
      name: item.name,
      message_id: item.message_id,
      type: item.type,
      text: item.text,
      media: item.media,
    });
    const message: CustomerMessage = {
      account,
      from,
      name: item.name,
      messageId: item.message_id,
      text: item.text,
      at,
    };
    if (!(await routeInboundToFlow(deps, tx, message, item, newConversation))) {
      await requestLiveChat(deps, tx, message, null);
    }
    return true;
  });
}
