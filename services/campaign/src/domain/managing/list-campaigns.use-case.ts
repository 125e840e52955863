import { paginationOf, type CampaignListDto, type ListCampaignsQuery } from '@bm/contracts';
import type { CampaignDeps } from '../campaign-deps';
import { toCampaignDto } from '../campaign.dto';

/**
 * The tenant's campaigns with their progress, newest first, or one split group's parts in part order. Each one's
 * cost so far is the figure messaging last gave: asking it for a whole page would sum every message of each.
 */
export async function listCampaigns(
  deps: Pick<CampaignDeps, 'campaigns' | 'rateCard'>,
  tenantId: number,
  query: ListCampaignsQuery,
): Promise<CampaignListDto> {
  const { campaigns, total } = await deps.campaigns.pageForTenant(tenantId, query);
  const counts = await deps.campaigns.countsOf(campaigns.map((c) => c.id));
  return {
    campaigns: campaigns.map((c) =>
      toCampaignDto(c, counts.get(c.id) ?? { sent: 0, failed: 0 }, deps.rateCard.currency),
    ),
    pagination: paginationOf(total, query.page, query.per_page),
  };
}
