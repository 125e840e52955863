import type { MessageStatus } from '@bm/contracts';
import { buildEvent } from '../emit-event';
import type { MessageLog, SentRecord } from '../ports/message-log.port';
import type { Tx } from '../ports/unit-of-work.port';
import {
  isFrequencyCapped,
  scheduleFrequencyCapRetry,
  type FrequencyCapRetryDeps,
} from './frequency-cap-retry';
import type { MessagingDeps } from '../messaging-deps';
import { recipientOf, statusesBefore, stopsMarketing } from '../lifecycle/message-lifecycle';

/** What a status change touches: the message log, the outbox, and the frequency-cap retry it may create. */
export type ChangeStatusDeps = Pick<MessagingDeps, 'messages' | 'outbox'> & FrequencyCapRetryDeps;

export interface StatusChange {
  status: MessageStatus;
  at?: Date;
  providerMessageId?: string;
  errorCode?: number | null;
  errorMessage?: string | null;
}

/** The fields of `message.status_updated` for a message now in its new status. */
export function statusEventFields(updated: MessageLog, previous: MessageStatus) {
  return {
    message_log_id: updated.id,
    channel_account_id: updated.channelAccountId,
    status: updated.status,
    previous_status: previous,
    to_phone: recipientOf(updated).phone,
    provider_message_id: updated.providerMessageId,
    error_code: updated.errorCode,
    error_message: updated.errorMessage,
    campaign_id: updated.campaignId,
    campaign_recipient_id: updated.campaignRecipientId,
    campaign_recipient_attempt: updated.campaignRecipientAttempt,
  };
}

/** A queued message the upstream accepted as `providerMessageId`, with its `sent` event, as `markSent` takes it. */
export function sentRecord(
  message: MessageLog,
  providerMessageId: string,
  traceparent: string | undefined,
  held = false,
): SentRecord {
  const view: MessageLog = { ...message, status: 'sent', providerMessageId };
  const event = buildEvent<'message.status_updated'>(message.tenantId, statusEventFields(view, 'queued'));
  return {
    id: message.id,
    providerMessageId,
    eventId: event.messageId,
    event: event.payload,
    traceparent,
    held,
  };
}

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
  const updated = await deps.messages.moveTo(tx, message.id, statusesBefore(change.status), {
    ...change,
    at: change.at ?? new Date(),
  });
  if (!updated) return undefined;
  // The published webhook reports sent, delivered, read and failed; a cancellation is the client's own act.
  if (change.status === 'cancelled') return updated;
  await deps.outbox.emit(
    tx,
    'message.status_updated',
    updated.tenantId,
    statusEventFields(updated, message.status),
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
    });
  return updated;
}
