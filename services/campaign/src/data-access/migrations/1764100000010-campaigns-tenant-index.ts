import type { MigrationInterface, QueryRunner } from 'typeorm';

/** GET /api/v1/campaigns: a tenant's campaigns newest first, and a split group's parts, read from an index. */
export class CampaignsTenantIndex1764100000010 implements MigrationInterface {
  name = 'CampaignsTenantIndex1764100000010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'CREATE INDEX campaigns_tenant_idx ON campaign.campaigns (tenant_id, created_at DESC, id DESC)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX campaign.campaigns_tenant_idx');
  }
}
