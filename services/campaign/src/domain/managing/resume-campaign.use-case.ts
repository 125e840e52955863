import type { CampaignDto } from '@bm/contracts';
import type { CampaignDeps } from '../campaign-deps';
import { dtoOf, transitionCampaign } from './campaign-of';
import type { CostSoFarDeps } from './cost-so-far';

/** Hands a paused campaign's recipients to messaging again. */
export async function resumeCampaign(
  deps: CostSoFarDeps & Pick<CampaignDeps, 'wakeDispatcher'>,
  tenantId: number,
  id: string,
): Promise<CampaignDto> {
  const campaign = await transitionCampaign(
    deps,
    tenantId,
    id,
    ['paused'],
    'processing',
    'CAMPAIGN_NOT_RESUMABLE',
  );
  deps.wakeDispatcher();
  return dtoOf(deps, campaign);
}
