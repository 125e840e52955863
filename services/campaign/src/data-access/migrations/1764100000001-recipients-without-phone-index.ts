import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Preparation drops duplicate phones itself, in the one transaction that writes a list (under the list's lock),
 * so the unique index only cost an index entry per recipient on the path of a 50,000-recipient list.
 */
export class RecipientsWithoutPhoneIndex1764100000001 implements MigrationInterface {
  name = 'RecipientsWithoutPhoneIndex1764100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX campaign.recipients_phone_idx');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('CREATE UNIQUE INDEX recipients_phone_idx ON campaign.recipients (campaign_id, phone)');
  }
}
