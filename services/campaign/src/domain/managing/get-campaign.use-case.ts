import type { CampaignDto } from '@bm/contracts';
import { campaignOf, dtoOf } from './campaign-of';
import type { CostSoFarDeps } from './cost-so-far';

/** GET /api/v1/campaigns/{id}: the tenant's campaign with its counts and its cost so far. */
export async function getCampaign(deps: CostSoFarDeps, tenantId: number, id: string): Promise<CampaignDto> {
  return dtoOf(deps, await campaignOf(deps, tenantId, id));
}
