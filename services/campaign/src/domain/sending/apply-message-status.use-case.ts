import type { MessageStatusUpdatedEvent } from '@bm/contracts';
import type { MessageOutcome } from '../../data-access/recipient.repository';
import type { CampaignDeps } from '../campaign-deps';
import { parseCampaignRecipientId } from './dispatch-campaigns.use-case';

const OUTCOME_OF_STATUS: Partial<Record<MessageStatusUpdatedEvent['status'], 'sent' | 'failed'>> = {
  sent: 'sent',
  delivered: 'sent',
  read: 'sent',
  failed: 'failed',
};

/** What a status event means for its campaign recipient, or null for single sends and statuses that mean nothing here. */
export function outcomeOf(event: MessageStatusUpdatedEvent): MessageOutcome | null {
  if (event.campaign_recipient_id === null) return null;
  const status = OUTCOME_OF_STATUS[event.status];
  const id = parseCampaignRecipientId(event.campaign_recipient_id);
  if (!status || !id) return null;
  return {
    ...id,
    messageLogId: event.message_log_id,
    status,
    errorMessage: event.error_message ?? (status === 'failed' ? 'the message failed' : null),
    at: new Date(event.occurred_at),
  };
}

/**
 * Campaign recipients follow their messages (applied in groups: a large campaign's answers arrive by the
 * thousand): `sent` once the upstream took it (a later delivered or read report changes nothing more), `failed`
 * with the message's error when it fails. Duplicates and answers about an earlier attempt change nothing.
 * The dispatcher's next pass (a fraction of a second) sees a finished campaign.
 */
export async function applyMessageOutcomes(
  deps: CampaignDeps,
  outcomes: readonly MessageOutcome[],
): Promise<void> {
  if (outcomes.length === 0) return;
  const changed = await deps.recipients.applyOutcomes(outcomes);
  if (changed.sent > 0) deps.metrics.recipients.inc({ status: 'sent' }, changed.sent);
  if (changed.failed > 0) deps.metrics.recipients.inc({ status: 'failed' }, changed.failed);
}
