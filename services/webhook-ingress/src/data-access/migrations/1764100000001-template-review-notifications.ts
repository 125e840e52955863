import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notifications of a second kind, the upstream's review of a template (approved or rejected): the live-chat
 * columns become optional and a template review keeps its facts in `details`.
 */
export class TemplateReviewNotifications1764100000001 implements MigrationInterface {
  name = 'TemplateReviewNotifications1764100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ingress.notifications
      ALTER COLUMN phone_number_id DROP NOT NULL,
      ALTER COLUMN customer_phone DROP NOT NULL,
      ALTER COLUMN message_id DROP NOT NULL,
      ADD COLUMN details jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM ingress.notifications WHERE type <> 'live_chat_request'`);
    await q.query(`ALTER TABLE ingress.notifications
      DROP COLUMN details,
      ALTER COLUMN phone_number_id SET NOT NULL,
      ALTER COLUMN customer_phone SET NOT NULL,
      ALTER COLUMN message_id SET NOT NULL`);
  }
}
