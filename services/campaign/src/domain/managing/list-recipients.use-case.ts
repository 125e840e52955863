import { paginationOf, type CampaignRecipientListDto, type CampaignRecipientsQuery } from '@bm/contracts';
import type { CampaignDeps } from '../campaign-deps';
import { toRecipientDto } from '../campaign.dto';
import { campaignOf } from './campaign-of';

/** GET /api/v1/campaigns/{id}/recipients: a page of the campaign's recipients, optionally of one status. */
export async function listRecipients(
  deps: Pick<CampaignDeps, 'campaigns' | 'recipients'>,
  tenantId: number,
  id: string,
  query: CampaignRecipientsQuery,
): Promise<CampaignRecipientListDto> {
  const campaign = await campaignOf(deps, tenantId, id);
  const { recipients, total } = await deps.recipients.page(
    campaign.id,
    query.status,
    query.page,
    query.per_page,
  );
  return {
    campaign_id: campaign.id,
    recipients: recipients.map(toRecipientDto),
    pagination: paginationOf(total, query.page, query.per_page),
  };
}
