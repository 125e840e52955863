import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the dashboard's number list shows beside the tier: whether the upstream took the webhook subscription
 * (known at connect and at each template sync) and the latest quality event the upstream reported.
 */
export class ChannelAccountHealth1764900000001 implements MigrationInterface {
  name = 'ChannelAccountHealth1764900000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messaging.channel_accounts
      ADD COLUMN webhooks_subscribed boolean NOT NULL DEFAULT false,
      ADD COLUMN quality_event text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE messaging.channel_accounts DROP COLUMN webhooks_subscribed, DROP COLUMN quality_event`,
    );
  }
}
