import { PAUSABLE_CAMPAIGN_STATUSES, type CampaignDto } from '@bm/contracts';
import { dtoOf, transitionCampaign } from './campaign-of';
import type { CostSoFarDeps } from './cost-so-far';

/** Stops handing recipients to messaging; those already handed over still finish. */
export async function pauseCampaign(deps: CostSoFarDeps, tenantId: number, id: string): Promise<CampaignDto> {
  return dtoOf(
    deps,
    await transitionCampaign(
      deps,
      tenantId,
      id,
      PAUSABLE_CAMPAIGN_STATUSES,
      'paused',
      'CAMPAIGN_NOT_PAUSABLE',
    ),
  );
}
