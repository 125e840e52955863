import type { CampaignDto } from '@bm/contracts';
import { campaignOf, dtoOf, type ManagingDeps } from './campaign-of';

/** GET /api/v1/campaigns/{id}: the tenant's campaign with its counts. */
export async function getCampaign(deps: ManagingDeps, tenantId: number, id: string): Promise<CampaignDto> {
  return dtoOf(deps, await campaignOf(deps, tenantId, id));
}
