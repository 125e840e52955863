import type { MessageLogDto } from '@bm/contracts';
import type { MessageLog } from '../ports/message-log.port';
import { recipientOf } from '../lifecycle/message-lifecycle';
import { toMessageContentDto } from './message-content';

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

/** The published message log, plus the retry links of CONTRACT.md. */
export function toMessageLogDto(m: MessageLog): MessageLogDto {
  return {
    message_log_id: m.id,
    status: m.status,
    to_phone: recipientOf(m).phone,
    to_user_id: recipientOf(m).userId,
    message_type: m.messageType,
    provider_message_id: m.providerMessageId,
    sent_at: iso(m.sentAt),
    delivered_at: iso(m.deliveredAt),
    read_at: iso(m.readAt),
    failed_at: iso(m.failedAt),
    scheduled_at: iso(m.scheduledAt),
    cost_amount: m.costAmount,
    cost_currency: m.costCurrency,
    error_message: m.errorMessage,
    error_code: m.errorCode,
    held: m.held,
    played_at: iso(m.playedAt),
    pricing: m.pricing,
    created_at: m.createdAt.toISOString(),
    retry_count: m.retryCount,
    retry_of_message_log_id: m.retryOfMessageLogId,
    retried_by_message_log_id: m.retriedByMessageLogId,
    campaign_id: m.campaignId,
    channel_account_id: m.channelAccountId,
    from_phone: m.fromPhone ?? null,
    content: toMessageContentDto(m.content),
  };
}
