import {
  CAMPAIGN_STOPPED_RECIPIENT_ERROR,
  STOPPABLE_CAMPAIGN_STATUSES,
  type CampaignDto,
} from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { CampaignDeps } from '../campaign-deps';
import { campaignEvent } from '../emit-event';
import { releaseCapacityHold } from '../release-capacity-hold';
import { campaignOf, dtoOf } from './campaign-of';
import type { CostSoFarDeps } from './cost-so-far';

/**
 * POST /api/v1/campaigns/{id}/stop (the console's Cancel campaign): a sending campaign (processing, throttled or
 * paused) ends `cancelled` mid-send. In one transaction: the move (it waits for a dispatcher step holding the
 * campaign's row, so a batch being handed over is either before the stop or never), its recipients not yet handed
 * to messaging fail as CAMPAIGN_STOPPED, and campaign.completed goes out with the status and counts. Recipients
 * already handed over finish and keep counting. The published cancel (pending and scheduled only) is unchanged.
 */
export async function stopCampaign(
  deps: CostSoFarDeps & Pick<CampaignDeps, 'unitOfWork' | 'wakeDispatcher'>,
  tenantId: number,
  id: string,
): Promise<CampaignDto> {
  const current = await campaignOf(deps, tenantId, id);
  const stopped = await deps.unitOfWork.run(async (tx) => {
    const moved = await tx.campaigns.transition(
      current.id,
      tenantId,
      STOPPABLE_CAMPAIGN_STATUSES,
      'cancelled',
    );
    if (!moved) return undefined;
    await tx.recipients.failUnrequested(moved.id, CAMPAIGN_STOPPED_RECIPIENT_ERROR);
    const counts = await tx.campaigns.counts(moved.id);
    await tx.outbox.enqueue([campaignEvent('campaign.completed', moved, counts)]);
    return moved;
  });
  if (!stopped) {
    const now = (await deps.campaigns.findForTenant(current.id, tenantId)) ?? current;
    throw new AppError('CAMPAIGN_NOT_STOPPABLE', undefined, { status: now.status });
  }
  await releaseCapacityHold(deps, stopped);
  deps.wakeDispatcher();
  return dtoOf(deps, stopped);
}
