import { sqlMigration } from '@bm/platform';

/**
 * A campaign recipient's send is known by the recipient and its attempt, carried as two fields instead of one
 * "<id>-<attempt>" string. Rows of older commands keep their attempt NULL (NULLS NOT DISTINCT: still once each).
 * Roll messaging out before campaign: messaging reads both forms, and a campaign replica sending the attempt
 * needs a messaging replica that echoes it. A messaging replica older than this migration can no longer record
 * a single campaign send (its ON CONFLICT names the index dropped here); such commands go to the dead-letter
 * queue after their deliveries and are replayed from there once the rollout is done.
 */
export const CampaignRecipientAttempt1764900000020 = sqlMigration('CampaignRecipientAttempt1764900000020', {
  up: [
    'ALTER TABLE messaging.message_logs ADD COLUMN campaign_recipient_attempt integer',
    `CREATE UNIQUE INDEX message_logs_campaign_recipient_key
         ON messaging.message_logs (campaign_recipient_id, campaign_recipient_attempt) NULLS NOT DISTINCT
        WHERE campaign_recipient_id IS NOT NULL`,
    'DROP INDEX messaging.message_logs_campaign_recipient_id_key',
  ],
  down: [
    `CREATE UNIQUE INDEX message_logs_campaign_recipient_id_key ON messaging.message_logs (campaign_recipient_id)
        WHERE campaign_recipient_id IS NOT NULL`,
    'DROP INDEX messaging.message_logs_campaign_recipient_key',
    'ALTER TABLE messaging.message_logs DROP COLUMN campaign_recipient_attempt',
  ],
});
