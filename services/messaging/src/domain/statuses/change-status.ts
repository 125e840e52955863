import type { MessageLog } from '../ports/message-log.port';
import { toOutboundMessageDto } from '../conversations/conversation.dto';
import { emitConversationMessage } from '../conversations/conversation-events';
import type { Tx } from '../ports/unit-of-work.port';
import {
  isFrequencyCapped,
  scheduleFrequencyCapRetry,
  type FrequencyCapRetryDeps,
} from './frequency-cap-retry';
import type { MessagingDeps } from '../messaging-deps';
import {
  recipientOf,
  statusEventFields,
  statusEventId,
  statusesBefore,
  stopsMarketing,
  type StatusChange,
} from '../lifecycle/message-lifecycle';

/** What a status change touches: the message log, the outbox, and the frequency-cap retry it may create. */
export type ChangeStatusDeps = Pick<MessagingDeps, 'messages' | 'outbox'> & FrequencyCapRetryDeps;

/**
 * Moves a message to a new status when the rules allow it (a conditional UPDATE, so concurrent reports cannot
 * both win), emits `message.status_updated` once for the real change, and creates the frequency-cap retry.
 * Returns the updated message, or undefined when nothing changed.
 */
export async function changeStatus(
  deps: ChangeStatusDeps,
  tx: Tx,
  message: MessageLog,
  change: StatusChange,
): Promise<MessageLog | undefined> {
  const at = change.at ?? new Date();
  const updated = await deps.messages.moveTo(tx, message.id, statusesBefore(change.status), {
    ...change,
    at,
  });
  if (!updated) return undefined;
  // A message of an inbox conversation: the browsers showing it see the new status.
  if (updated.conversationId)
    await emitConversationMessage(
      deps,
      tx,
      updated.tenantId,
      updated.conversationId,
      toOutboundMessageDto(updated),
    );
  // The published webhook reports sent, delivered, read and failed; a cancellation is the client's own act.
  if (change.status === 'cancelled') return updated;
  await deps.outbox.emit(
    tx,
    'message.status_updated',
    updated.tenantId,
    statusEventFields(updated, message.status),
    statusEventId(updated),
  );
  if (change.status === 'failed' && isFrequencyCapped(change.errorCode))
    await scheduleFrequencyCapRetry(deps, tx, updated);
  // The customer stopped marketing: the opt-out list learns it in the same commit as the failure.
  if (change.status === 'failed' && stopsMarketing(change.errorCode))
    await deps.outbox.emit(tx, 'customer.marketing_preference', updated.tenantId, {
      channel_account_id: updated.channelAccountId,
      phone: recipientOf(updated).phone,
      user_id: recipientOf(updated).userId,
      value: 'stop',
      reason: 'error_131050',
      // The refusal's time orders it among the customer's own choices (a resume after it lifts it).
      chosen_at: at.toISOString(),
    });
  return updated;
}
