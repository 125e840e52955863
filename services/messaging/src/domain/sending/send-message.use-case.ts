import { ok, type SendAcknowledgement, type SendMessageRequest, type SuccessEnvelope } from '@bm/contracts';
import { AppError, futureScheduledAt, type IdempotentAnswer } from '@bm/platform';
import type { MessagingDeps } from '../messaging-deps';
import type { Tx } from '../ports/unit-of-work.port';
import { needsServiceWindow } from '../lifecycle/message-lifecycle';
import { keyAddressOf } from '../customers/customer-address';
import { assertTemplateSendable } from '../templates/template-rules';
import type { MessageContent, NewMessageLog } from '../ports/message-log.port';

type Ack = SuccessEnvelope<SendAcknowledgement>;

/**
 * POST /api/v1/messages/send: checks the account, the window or the template, then writes the message log and
 * its delivery command in one transaction and answers 202. A replayed Idempotency-Key answers the first 202.
 */
export async function sendMessage(
  deps: Pick<
    MessagingDeps,
    'idempotency' | 'accounts' | 'templates' | 'customers' | 'messages' | 'messageWriter' | 'unitOfWork'
  >,
  tenantId: number,
  request: SendMessageRequest,
  rawBody: unknown,
  idempotencyKey: string | undefined,
): Promise<IdempotentAnswer<Ack>> {
  return deps.idempotency.run<Ack>(tenantId, idempotencyKey, rawBody, async (record) => {
    const account = await deps.accounts.findActiveForTenant(request.channel_account_id, tenantId);
    if (!account) throw new AppError('NO_ACTIVE_ACCOUNT');
    // The customer's address: their phone, or for a send by user id the phone it is linked to, else the user id
    // (the key their window is kept under). Opt-outs are checked at every address linked to it.
    const userId = request.user_id ?? null;
    const address = userId ? await keyAddressOf(deps, tenantId, userId) : (request.phone ?? '');
    const scheduledAt = futureScheduledAt(request.scheduled_at, request.timezone);

    let content: MessageContent;
    let category: string;
    let templateCategory: string | null = null;
    if (request.message_type === 'text') {
      content = { text: request.data.text };
      category = 'SERVICE';
    } else {
      const template = assertTemplateSendable(
        await deps.templates.find(account.id, request.data.name, request.data.language_code),
        request.data.components,
      );
      if (
        template.category === 'MARKETING' &&
        (await deps.customers.isOptedOut(tenantId, userId ?? address))
      ) {
        throw new AppError('RECIPIENT_OPTED_OUT');
      }
      content = {
        name: template.name,
        language: template.language,
        components: (request.data.components ?? []) as unknown as Array<Record<string, unknown>>,
      };
      category = template.category;
      templateCategory = template.category;
    }

    // Without a key the insert goes through the group-commit writer (atomic on its own); with one, it joins
    // the transaction that records the answer for replays.
    const write = async (tx?: Tx) => {
      const row: NewMessageLog = {
        tenantId,
        channelAccountId: account.id,
        toPhone: address,
        toUserId: userId,
        messageType: request.message_type,
        content,
        templateCategory,
        conversationCategory: category,
        status: scheduledAt ? 'scheduled' : 'queued',
        scheduledAt,
        autoRetryOnFrequencyCap: request.message_type === 'template' && request.auto_retry_on_frequency_cap,
      };
      const options = {
        deliver: !scheduledAt,
        requireServiceWindow: needsServiceWindow(request.message_type) && !scheduledAt,
      };
      const message = tx
        ? await deps.messages.insert(tx, row, options)
        : await deps.messageWriter.insert(row, options);
      // An immediate text is written only while the customer's window is open (checked in the same statement).
      if (!message) throw new AppError('OUTSIDE_SERVICE_WINDOW');
      const body = ok<SendAcknowledgement>({
        status: scheduledAt ? 'scheduled' : 'queued',
        message_log_id: message.id,
        conversation_category: category as SendAcknowledgement['conversation_category'],
        cost: 0.0,
        scheduled_at: scheduledAt ? scheduledAt.toISOString() : null,
      });
      return { status: 202, body };
    };
    if (idempotencyKey === undefined) return write();
    return deps.unitOfWork.inTransaction(async (tx) => {
      const answer = await write(tx);
      await record(tx, answer.status, answer.body);
      return answer;
    });
  });
}
