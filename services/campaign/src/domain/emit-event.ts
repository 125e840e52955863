import type { EntityManager } from 'typeorm';
import { DOMAIN_EVENTS, type CampaignEvent, type OptOutChangedEvent } from '@bm/contracts';
import { enqueueEvent, newUlid } from '@bm/platform';
import type { Campaign, RecipientCounts } from '../data-access/campaign.repository';
import type { OptOutChange } from '../data-access/opt-out.repository';
import { CAMPAIGN_SCHEMA } from '../data-access/data-source';

type CampaignEventKey = 'campaign.created' | 'campaign.started' | 'campaign.completed';

function base(tenantId: number) {
  const eventId = newUlid();
  return {
    messageId: eventId,
    fields: { event_id: eventId, tenant_id: tenantId, occurred_at: new Date().toISOString() },
  };
}

/** A campaign event through the outbox, with the campaign's counts at that moment. */
export async function emitCampaignEvent(
  tx: EntityManager,
  routingKey: CampaignEventKey,
  campaign: Campaign,
  counts: Pick<RecipientCounts, 'sent' | 'failed'>,
  totalCount = campaign.totalCount,
): Promise<void> {
  const { messageId, fields } = base(campaign.tenantId);
  const payload: CampaignEvent = {
    ...fields,
    campaign_id: campaign.id,
    name: campaign.name,
    status: campaign.status,
    total_count: totalCount,
    sent_count: counts.sent,
    failed_count: counts.failed,
    campaign_group_id: campaign.campaignGroupId,
  };
  await enqueueEvent(tx, CAMPAIGN_SCHEMA, { routingKey, messageId, payload });
}

/** Tells the other services (messaging keeps a copy for single sends) that a phone opted out or back in. */
export async function emitOptOutChanged(
  tx: EntityManager,
  change: OptOutChange,
  source: string,
): Promise<void> {
  const { messageId, fields } = base(change.tenantId);
  const payload: OptOutChangedEvent = {
    ...fields,
    phone: change.phone,
    opted_out: change.optedOut,
    source,
    version: change.version,
  };
  await enqueueEvent(tx, CAMPAIGN_SCHEMA, { routingKey: DOMAIN_EVENTS.optOutChanged, messageId, payload });
}
