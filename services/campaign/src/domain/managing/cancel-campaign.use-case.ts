import { CANCELLABLE_CAMPAIGN_STATUSES, type CampaignCancelledDto } from '@bm/contracts';
import type { CampaignDeps } from '../campaign-deps';
import { releaseCapacityHold } from '../release-capacity-hold';
import { transitionCampaign } from './campaign-of';

/** Cancels a campaign nothing has been sent for (pending, or a split part waiting as scheduled). */
export async function cancelCampaign(
  deps: Pick<CampaignDeps, 'campaigns' | 'messaging' | 'logger' | 'wakeDispatcher'>,
  tenantId: number,
  id: string,
): Promise<CampaignCancelledDto> {
  const campaign = await transitionCampaign(
    deps,
    tenantId,
    id,
    CANCELLABLE_CAMPAIGN_STATUSES,
    'cancelled',
    'CAMPAIGN_NOT_CANCELLABLE',
  );
  await releaseCapacityHold(deps, campaign);
  deps.wakeDispatcher();
  return { success: true, campaign_id: campaign.id, status: 'cancelled' };
}
