import { ulidSchema, type CampaignDto, type CampaignStatus, type ErrorCode } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { CampaignDeps } from '../campaign-deps';
import { toCampaignDto } from '../campaign.dto';
import type { Campaign } from '../ports/campaigns.port';
import { costSoFar, type CostSoFarDeps } from './cost-so-far';

export type ManagingDeps = Pick<CampaignDeps, 'campaigns'>;

/** A tenant's campaign; 404 CAMPAIGN_NOT_FOUND for a malformed id, an unknown one or another tenant's. */
export async function campaignOf(deps: ManagingDeps, tenantId: number, id: string): Promise<Campaign> {
  const campaign = ulidSchema.validate(id).error
    ? undefined
    : await deps.campaigns.findForTenant(id, tenantId);
  if (!campaign) throw new AppError('CAMPAIGN_NOT_FOUND');
  return campaign;
}

/** The campaign as the API shows it, with its recipients counted and its cost so far asked of messaging. */
export async function dtoOf(deps: CostSoFarDeps, campaign: Campaign): Promise<CampaignDto> {
  const [counts, costAmount] = await Promise.all([
    deps.campaigns.counts(campaign.id),
    costSoFar(deps, campaign),
  ]);
  return toCampaignDto({ ...campaign, costAmount }, counts, deps.rateCard.currency);
}

/** Moves a campaign between statuses, or answers `refusal` (409) with the status it is in. */
export async function transitionCampaign(
  deps: ManagingDeps,
  tenantId: number,
  id: string,
  from: readonly CampaignStatus[],
  to: CampaignStatus,
  refusal: ErrorCode,
): Promise<Campaign> {
  const current = await campaignOf(deps, tenantId, id);
  const moved = await deps.campaigns.transition(current.id, tenantId, from, to);
  if (moved) return moved;
  const now = (await deps.campaigns.findForTenant(current.id, tenantId)) ?? current;
  throw new AppError(refusal, undefined, { status: now.status });
}
