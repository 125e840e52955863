import { sqlMigration } from '@bm/platform';

/**
 * Most message logs have no provider id yet and no campaign recipient: partial unique indexes keep those rows
 * out of the indexes, so the insert on the send path writes two index entries fewer.
 */
export const PartialUniqueIndexes1763900000001 = sqlMigration('PartialUniqueIndexes1763900000001', {
  up: [
    'ALTER TABLE messaging.message_logs DROP CONSTRAINT message_logs_provider_message_id_key',
    'ALTER TABLE messaging.message_logs DROP CONSTRAINT message_logs_campaign_recipient_id_key',
    `CREATE UNIQUE INDEX message_logs_provider_message_id_key ON messaging.message_logs (provider_message_id)
        WHERE provider_message_id IS NOT NULL`,
    `CREATE UNIQUE INDEX message_logs_campaign_recipient_id_key ON messaging.message_logs (campaign_recipient_id)
        WHERE campaign_recipient_id IS NOT NULL`,
  ],
  down: [
    'DROP INDEX messaging.message_logs_provider_message_id_key',
    'DROP INDEX messaging.message_logs_campaign_recipient_id_key',
    'ALTER TABLE messaging.message_logs ADD CONSTRAINT message_logs_provider_message_id_key UNIQUE (provider_message_id)',
    'ALTER TABLE messaging.message_logs ADD CONSTRAINT message_logs_campaign_recipient_id_key UNIQUE (campaign_recipient_id)',
  ],
});
