import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Most message logs have no provider id yet and no campaign recipient: partial unique indexes keep those rows
 * out of the indexes, so the insert on the send path writes two index entries fewer.
 */
export class PartialUniqueIndexes1763900000001 implements MigrationInterface {
  name = 'PartialUniqueIndexes1763900000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE messaging.message_logs DROP CONSTRAINT message_logs_provider_message_id_key');
    await q.query(
      'ALTER TABLE messaging.message_logs DROP CONSTRAINT message_logs_campaign_recipient_id_key',
    );
    await q.query(
      `CREATE UNIQUE INDEX message_logs_provider_message_id_key ON messaging.message_logs (provider_message_id)
        WHERE provider_message_id IS NOT NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX message_logs_campaign_recipient_id_key ON messaging.message_logs (campaign_recipient_id)
        WHERE campaign_recipient_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX messaging.message_logs_provider_message_id_key');
    await q.query('DROP INDEX messaging.message_logs_campaign_recipient_id_key');
    await q.query(
      'ALTER TABLE messaging.message_logs ADD CONSTRAINT message_logs_provider_message_id_key UNIQUE (provider_message_id)',
    );
    await q.query(
      'ALTER TABLE messaging.message_logs ADD CONSTRAINT message_logs_campaign_recipient_id_key UNIQUE (campaign_recipient_id)',
    );
  }
}
