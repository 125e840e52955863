import type { CampaignDeps } from '../campaign-deps';
import type { Campaign } from '../ports/campaigns.port';

export type CostSoFarDeps = Pick<CampaignDeps, 'config' | 'campaigns' | 'messaging' | 'logger' | 'rateCard'>;

/** Whether the cost messaging last gave is recent enough to answer again without asking. */
const fresh = (campaign: Campaign, refreshMs: number) =>
  campaign.costCheckedAt !== null && Date.now() - campaign.costCheckedAt.getTime() < refreshMs;

/**
 * What a campaign's messages cost so far (CONTRACT.md, per-message pricing): 0 before it started sending, else
 * messaging's sum of their costs in the campaign's currency, kept with the time it was given, and given again
 * until COST_REFRESH_MS old (a 50,000-message campaign's sum reads its 50,000 rows). When messaging cannot
 * answer, the last known figure stands and a warning is logged: a cost is never worth failing a read.
 */
export async function costSoFar(deps: CostSoFarDeps, campaign: Campaign): Promise<number> {
  if (campaign.startedAt === null || fresh(campaign, deps.config.COST_REFRESH_MS)) return campaign.costAmount;
  let amount: number;
  try {
    amount = await deps.messaging.campaignCost(
      campaign.tenantId,
      campaign.id,
      campaign.costCurrency ?? deps.rateCard.currency,
    );
  } catch (err) {
    deps.logger.warn('messaging did not give the campaign cost so far: answering the last known', {
      campaign_id: campaign.id,
      cost_amount: campaign.costAmount,
      error: (err as Error).message,
    });
    return campaign.costAmount;
  }
  await deps.campaigns.recordCost(campaign.id, amount);
  return amount;
}
