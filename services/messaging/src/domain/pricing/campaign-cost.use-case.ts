import { roundCost } from '@bm/platform';
import type { CampaignCostDto } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';

/**
 * What a campaign's messages cost so far (CONTRACT.md, per-message pricing), for the campaign service's GET: the
 * sum of their `cost_amount` in the campaign's currency, 0 while none is priced. A campaign messaging never saw
 * (another tenant's, or none sent yet) costs 0.
 */
export async function campaignCost(
  deps: Pick<MessagingDeps, 'reader'>,
  tenantId: number,
  campaignId: string,
  currency: string,
): Promise<CampaignCostDto> {
  const amount = await deps.reader.campaignCost(tenantId, campaignId, currency);
  return { campaign_id: campaignId, cost_amount: roundCost(amount), cost_currency: currency };
}
