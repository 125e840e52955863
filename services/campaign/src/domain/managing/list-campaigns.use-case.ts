import {
  normalizePhone,
  paginationOf,
  type CampaignListDto,
  type CreateCampaignRequest,
  type ListCampaignsQuery,
} from '@bm/contracts';
import type { CampaignDeps } from '../campaign-deps';
import { toCampaignDto } from '../campaign.dto';

/** The tenant's campaigns with their progress, newest first, or one split group's parts in part order. */
export async function listCampaigns(
  deps: CampaignDeps,
  tenantId: number,
  query: ListCampaignsQuery,
): Promise<CampaignListDto> {
  const { campaigns, total } = await deps.campaigns.pageForTenant(tenantId, query);
  const counts = await deps.campaigns.countsOf(campaigns.map((c) => c.id));
  return {
    campaigns: campaigns.map((c) => toCampaignDto(c, counts.get(c.id) ?? { sent: 0, failed: 0 })),
    pagination: paginationOf(total, query.page, query.per_page),
  };
}

/** How many of a planned campaign's recipients are opted out, so the dry run can say they will be skipped. */
export async function optedOutAmong(
  deps: CampaignDeps,
  tenantId: number,
  request: Pick<CreateCampaignRequest, 'recipients'>,
): Promise<number> {
  const phones = request.recipients.flatMap((r) => {
    const phone = normalizePhone(r.phone);
    return phone === null ? [] : [phone];
  });
  return deps.optOuts.countAmong(tenantId, phones);
}
