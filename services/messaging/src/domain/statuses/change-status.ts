import type { MessageStatus } from '@bm/contracts';
import type { EntityManager } from 'typeorm';
import type { MessageLog } from '../../data-access/message-log.repository';
import { buildEvent, emitEvent } from '../emit-event';
import { isFrequencyCapped, scheduleFrequencyCapRetry } from './frequency-cap-retry';
import type { MessagingDeps } from '../messaging-deps';
import { statusesBefore } from './status-rules';

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
    to_phone: updated.toPhone,
    provider_message_id: updated.providerMessageId,
    error_code: updated.errorCode,
    error_message: updated.errorMessage,
    campaign_id: updated.campaignId,
    campaign_recipient_id: updated.campaignRecipientId,
    campaign_recipient_attempt: updated.campaignRecipientAttempt,
  };
}

/** A queued message the upstream accepted as `providerMessageId`, with its `sent` event, as `markSent` takes it. */
export function sentRecord(message: MessageLog, providerMessageId: string, traceparent: string | undefined) {
  const view: MessageLog = { ...message, status: 'sent', providerMessageId };
  const event = buildEvent<'message.status_updated'>(message.tenantId, statusEventFields(view, 'queued'));
  return { id: message.id, providerMessageId, eventId: event.messageId, event: event.payload, traceparent };
}

/**
 * Moves a message to a new status when the rules allow it (a conditional UPDATE, so concurrent reports cannot
 * both win), emits `message.status_updated` once for the real change, and creates the frequency-cap retry.
 * Returns the updated message, or undefined when nothing changed.
 */
export async function changeStatus(
  deps: MessagingDeps,
  tx: EntityManager,
  message: MessageLog,
  change: StatusChange,
): Promise<MessageLog | undefined> {
  const at = change.at ?? new Date();
  const set: Record<string, unknown> = {
    status: change.status,
    attempt_started_at: null,
    next_attempt_at: null,
  };
  if (change.providerMessageId) set.provider_message_id = change.providerMessageId;
  if (change.status === 'sent') set.sent_at = at;
  if (change.status === 'delivered') set.delivered_at = at;
  if (change.status === 'read') set.read_at = at;
  if (change.status === 'failed') {
    set.failed_at = at;
    set.error_code = change.errorCode ?? null;
    set.error_message = change.errorMessage ?? 'failed';
  }
  const updated = await deps.messages.transition(tx, message.id, statusesBefore(change.status), set);
  if (!updated) return undefined;
  if (change.status !== 'failed' && updated.sentAt === null && change.status !== 'cancelled') {
    // A delivered or read report that overtook the send: the message was handed over at the latest then.
    await deps.messages.transition(tx, message.id, [change.status], { sent_at: at });
    updated.sentAt = at;
  }
  // The published webhook reports sent, delivered, read and failed; a cancellation is the client's own act.
  if (change.status === 'cancelled') return updated;
  await emitEvent(tx, 'message.status_updated', updated.tenantId, statusEventFields(updated, message.status));
  if (change.status === 'failed' && isFrequencyCapped(change.errorCode))
    await scheduleFrequencyCapRetry(deps, tx, updated);
  return updated;
}
