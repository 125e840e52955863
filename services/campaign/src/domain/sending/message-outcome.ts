import type { MessageStatusUpdatedEvent } from '@bm/contracts';
import type { MessageOutcome } from '../ports/recipients.port';

const OUTCOME_OF_STATUS: Partial<Record<MessageStatusUpdatedEvent['status'], 'sent' | 'failed'>> = {
  sent: 'sent',
  delivered: 'sent',
  read: 'sent',
  failed: 'failed',
};

const RECIPIENT_ID = /^\d{1,18}$/;
/** How commands named a retried recipient before the attempt had its own field ("<id>-<attempt>"). */
const PACKED_RECIPIENT_ID = /^(\d{1,18})(?:-(\d{1,9}))?$/;

/**
 * The recipient and attempt a status event is about. An event without `campaign_recipient_attempt` answers a
 * command sent before the field existed (messages in flight across an upgrade): its id carries the attempt.
 */
export function campaignRecipientOf(
  event: Pick<MessageStatusUpdatedEvent, 'campaign_recipient_id' | 'campaign_recipient_attempt'>,
): { recipientId: string; attempt: number } | null {
  const id = event.campaign_recipient_id;
  if (id === null) return null;
  const attempt = event.campaign_recipient_attempt;
  if (typeof attempt === 'number') return RECIPIENT_ID.test(id) ? { recipientId: id, attempt } : null;
  const packed = PACKED_RECIPIENT_ID.exec(id);
  return packed ? { recipientId: packed[1], attempt: packed[2] ? Number(packed[2]) : 0 } : null;
}

/**
 * Whether a status event, not yet checked against its schema, names a campaign recipient. Most do not (single
 * sends': three or four events per message) and mean nothing here, so they are acknowledged without the schema
 * check, which costs more than the rest of their handling. An event that does name one is checked in full.
 */
export function namesCampaignRecipient(payload: unknown): boolean {
  if (typeof payload !== 'object' || payload === null) return true;
  const id = (payload as { campaign_recipient_id?: unknown }).campaign_recipient_id;
  return id !== null && id !== undefined;
}

/** What a status event means for its campaign recipient, or null for single sends and statuses that mean nothing here. */
export function outcomeOf(event: MessageStatusUpdatedEvent): MessageOutcome | null {
  const status = OUTCOME_OF_STATUS[event.status];
  const recipient = campaignRecipientOf(event);
  if (!status || !recipient) return null;
  return {
    ...recipient,
    messageLogId: event.message_log_id,
    status,
    errorMessage: event.error_message ?? (status === 'failed' ? 'the message failed' : null),
    at: new Date(event.occurred_at),
  };
}
