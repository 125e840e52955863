import type { CampaignCreatedDto, CampaignDto, CampaignPartDto, CampaignRecipientDto } from '@bm/contracts';
import type { Campaign, RecipientCounts } from './ports/campaigns.port';
import type { Recipient } from './ports/recipients.port';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function toPartDto(c: Campaign): CampaignPartDto {
  return {
    campaign_id: c.id,
    name: c.name,
    part_number: c.partNumber ?? 1,
    status: c.status,
    requested_count: c.requestedCount,
    scheduled_at: iso(c.scheduledAt),
  };
}

/** The 202 of a create: the first part's fields, and the group for a split. */
export function toCreatedDto(parts: readonly Campaign[]): CampaignCreatedDto {
  const first = parts[0];
  const dto: CampaignCreatedDto = {
    campaign_id: first.id,
    name: first.name,
    status: first.status,
    message_type: 'template',
    requested_count: first.requestedCount,
    total_count: first.totalCount,
    scheduled_at: iso(first.scheduledAt),
    created_at: first.createdAt.toISOString(),
  };
  if (first.campaignGroupId === null) return dto;
  return {
    ...dto,
    campaign_group_id: first.campaignGroupId,
    parts_total: parts.length,
    parts: parts.map(toPartDto),
  };
}

/** The campaign as the API shows it; `cardCurrency` stands in for the currency of one prepared before costs. */
export function toCampaignDto(
  c: Campaign,
  counts: Pick<RecipientCounts, 'sent' | 'failed'>,
  cardCurrency: string,
): CampaignDto {
  return {
    campaign_id: c.id,
    name: c.name,
    status: c.status,
    message_type: 'template',
    total_count: c.totalCount,
    sent_count: counts.sent,
    failed_count: counts.failed,
    scheduled_at: iso(c.scheduledAt),
    created_at: c.createdAt.toISOString(),
    failure_reason: c.failureReason,
    requested_count: c.requestedCount,
    channel_account_id: c.channelAccountId,
    template_name: c.templateName,
    template_language: c.templateLanguage,
    campaign_group_id: c.campaignGroupId,
    part_number: c.partNumber,
    parts_total: c.partsTotal,
    estimated_cost: c.estimatedCost,
    cost_amount: c.costAmount,
    cost_currency: c.costCurrency ?? cardCurrency,
  };
}

export function toRecipientDto(r: Recipient): CampaignRecipientDto {
  return {
    // A recipient given by user id shows it beside a null phone; one given by phone keeps the published shape.
    ...(r.userId ? { phone: null, user_id: r.userId } : { phone: r.phone || null }),
    name: r.name,
    status: r.status,
    message_log_id: r.messageLogId,
    error_message: r.errorMessage,
    sent_at: iso(r.sentAt),
  };
}
