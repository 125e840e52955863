import { CANCELLABLE_CAMPAIGN_STATUSES, type CampaignCancelledDto } from '@bm/contracts';
import type { CampaignDeps } from '../campaign-deps';
import { transitionCampaign } from './campaign-of';

/** Cancels a campaign nothing has been sent for (pending, or a split part waiting as scheduled). */
export async function cancelCampaign(
  deps: CampaignDeps,
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
  await deps.messaging
    .release(tenantId, campaign.channelAccountId, campaign.id)
    .catch((err: unknown) =>
      deps.logger.warn('could not release a capacity hold', { error: (err as Error).message }),
    );
  deps.wakeDispatcher();
  return { success: true, campaign_id: campaign.id, status: 'cancelled' };
}
