import { sqlMigration } from '@bm/platform';

/**
 * Notifications of a second kind, the upstream's review of a template (approved or rejected): the live-chat
 * columns become optional and a template review keeps its facts in `details`.
 */
export const TemplateReviewNotifications1764100000001 = sqlMigration(
  'TemplateReviewNotifications1764100000001',
  {
    up: [
      `ALTER TABLE ingress.notifications
      ALTER COLUMN phone_number_id DROP NOT NULL,
      ALTER COLUMN customer_phone DROP NOT NULL,
      ALTER COLUMN message_id DROP NOT NULL,
      ADD COLUMN details jsonb`,
    ],
    down: [
      `DELETE FROM ingress.notifications WHERE type <> 'live_chat_request'`,
      `ALTER TABLE ingress.notifications
      DROP COLUMN details,
      ALTER COLUMN phone_number_id SET NOT NULL,
      ALTER COLUMN customer_phone SET NOT NULL,
      ALTER COLUMN message_id SET NOT NULL`,
    ],
  },
);
