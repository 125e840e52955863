import { sqlMigration } from '@bm/platform';

/** GET /api/v1/campaigns: a tenant's campaigns newest first, and a split group's parts, read from an index. */
export const CampaignsTenantIndex1764100000010 = sqlMigration('CampaignsTenantIndex1764100000010', {
  up: ['CREATE INDEX campaigns_tenant_idx ON campaign.campaigns (tenant_id, created_at DESC, id DESC)'],
  down: ['DROP INDEX campaign.campaigns_tenant_idx'],
});
