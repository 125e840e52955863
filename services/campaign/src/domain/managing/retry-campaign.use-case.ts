import { RETRYABLE_CAMPAIGN_STATUSES, type CampaignRetryDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { CampaignDeps } from '../campaign-deps';
import { campaignOf, dtoOf } from './campaign-of';
import type { CostSoFarDeps } from './cost-so-far';

/**
 * Sends again to a completed or failed campaign's failed recipients (not invalid phones, not opt-outs): each
 * gets a new attempt and the campaign starts over as `pending`, with its events.
 */
export async function retryCampaign(
  deps: CostSoFarDeps & Pick<CampaignDeps, 'unitOfWork' | 'wakeDispatcher'>,
  tenantId: number,
  id: string,
): Promise<CampaignRetryDto> {
  const current = await campaignOf(deps, tenantId, id);
  const result = await deps.unitOfWork.run(async (tx) => {
    const campaign = await tx.campaigns.findForTenant(current.id, tenantId, { lock: true });
    if (!campaign || !RETRYABLE_CAMPAIGN_STATUSES.includes(campaign.status)) {
      throw new AppError('CAMPAIGN_NOT_RETRYABLE', undefined, { status: campaign?.status ?? current.status });
    }
    const retried = await tx.recipients.resetFailed(campaign.id, tenantId);
    if (retried === 0) return { campaign, retried };
    await tx.campaigns.setStatus(campaign.id, 'pending', { reopened: true });
    return { campaign: { ...campaign, status: 'pending' as const, failureReason: null }, retried };
  });
  if (result.retried > 0) deps.wakeDispatcher();
  return { ...(await dtoOf(deps, result.campaign)), retried_count: result.retried };
}
