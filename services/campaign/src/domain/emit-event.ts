import { DOMAIN_EVENTS, type CampaignEvent, type OptOutChangedEvent } from '@bm/contracts';
import { newUlid, type OutboxEvent } from '@bm/platform';
import type { Campaign, RecipientCounts } from './ports/campaigns.port';
import type { OptOutChange } from './ports/opt-outs.port';

type CampaignEventKey = 'campaign.created' | 'campaign.started' | 'campaign.completed';

function base(tenantId: number) {
  const eventId = newUlid();
  return {
    messageId: eventId,
    fields: { event_id: eventId, tenant_id: tenantId, occurred_at: new Date().toISOString() },
  };
}

/** A campaign event for the outbox, with the campaign's counts at that moment. */
export function campaignEvent(
  routingKey: CampaignEventKey,
  campaign: Campaign,
  counts: Pick<RecipientCounts, 'sent' | 'failed'>,
): OutboxEvent {
  const { messageId, fields } = base(campaign.tenantId);
  const payload: CampaignEvent = {
    ...fields,
    campaign_id: campaign.id,
    name: campaign.name,
    status: campaign.status,
    total_count: campaign.totalCount,
    sent_count: counts.sent,
    failed_count: counts.failed,
    campaign_group_id: campaign.campaignGroupId,
  };
  return { routingKey, messageId, payload };
}

/** Tells the other services (messaging keeps a copy for single sends) that a phone opted out or back in. */
export function optOutChangedEvent(change: OptOutChange, source: string): OutboxEvent {
  const { messageId, fields } = base(change.tenantId);
  const payload: OptOutChangedEvent = {
    ...fields,
    phone: change.phone,
    opted_out: change.optedOut,
    source,
    version: change.version,
  };
  return { routingKey: DOMAIN_EVENTS.optOutChanged, messageId, payload };
}
