import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A campaign recipient's send is known by the recipient and its attempt, carried as two fields instead of one
 * "<id>-<attempt>" string. Rows of older commands keep their attempt NULL (NULLS NOT DISTINCT: still once each).
 * Roll messaging out before campaign: messaging reads both forms, and a campaign replica sending the attempt
 * needs a messaging replica that echoes it. A messaging replica older than this migration can no longer record
 * a single campaign send (its ON CONFLICT names the index dropped here); such commands go to the dead-letter
 * queue after their deliveries and are replayed from there once the rollout is done.
 */
export class CampaignRecipientAttempt1764900000020 implements MigrationInterface {
  name = 'CampaignRecipientAttempt1764900000020';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE messaging.message_logs ADD COLUMN campaign_recipient_attempt integer');
    await q.query(
      `CREATE UNIQUE INDEX message_logs_campaign_recipient_key
         ON messaging.message_logs (campaign_recipient_id, campaign_recipient_attempt) NULLS NOT DISTINCT
        WHERE campaign_recipient_id IS NOT NULL`,
    );
    await q.query('DROP INDEX messaging.message_logs_campaign_recipient_id_key');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE UNIQUE INDEX message_logs_campaign_recipient_id_key ON messaging.message_logs (campaign_recipient_id)
        WHERE campaign_recipient_id IS NOT NULL`,
    );
    await q.query('DROP INDEX messaging.message_logs_campaign_recipient_key');
    await q.query('ALTER TABLE messaging.message_logs DROP COLUMN campaign_recipient_attempt');
  }
}
