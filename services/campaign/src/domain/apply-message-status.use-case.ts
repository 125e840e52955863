import type { MessageStatusUpdatedEvent } from '@bm/contracts';
import type { CampaignDeps } from './campaign-deps';
import { parseCampaignRecipientId } from './dispatch-campaigns.use-case';

const OUTCOME_OF_STATUS: Partial<Record<MessageStatusUpdatedEvent['status'], 'sent' | 'failed'>> = {
  sent: 'sent',
  delivered: 'sent',
  read: 'sent',
  failed: 'failed',
};

/**
 * A campaign recipient follows its message: `sent` once the upstream took it (a later delivered or read report
 * changes nothing more), `failed` with the message's error when it fails. Other tenants' and single sends'
 * events, duplicates and answers about an earlier attempt change nothing.
 */
export async function applyMessageStatus(
  deps: CampaignDeps,
  event: MessageStatusUpdatedEvent,
): Promise<void> {
  if (event.campaign_recipient_id === null) return;
  const outcome = OUTCOME_OF_STATUS[event.status];
  const id = parseCampaignRecipientId(event.campaign_recipient_id);
  if (!outcome || !id) return;
  // The dispatcher's next pass (a fraction of a second) sees a finished campaign; waking it per answer would
  // make it run flat out during a large campaign.
  const changed = await deps.recipients.applyOutcome({
    ...id,
    messageLogId: event.message_log_id,
    status: outcome,
    errorMessage: event.error_message ?? (outcome === 'failed' ? 'the message failed' : null),
    at: new Date(event.occurred_at),
  });
  if (changed) deps.metrics.recipients.inc({ status: outcome });
}
