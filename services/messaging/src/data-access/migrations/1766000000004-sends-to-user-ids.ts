import { sqlMigration } from '@bm/platform';

/**
 * Sends to a customer's business-scoped user id (CONTRACT.md, the network of late 2026): a message log keeps
 * `to_user_id` (null for a send by phone). `to_phone` keeps the customer's address, the user id itself for a
 * send by user id, so that the window, conversation and throughput rules keyed by it apply unchanged; the API
 * shows `to_phone` null for such a send. Existing rows: null. No rewrite.
 */
export const SendsToUserIds1766000000004 = sqlMigration('SendsToUserIds1766000000004', {
  up: [
    'ALTER TABLE messaging.message_logs ADD COLUMN to_user_id text',
    `CREATE INDEX message_logs_to_user_idx ON messaging.message_logs (tenant_id, to_user_id)
       WHERE to_user_id IS NOT NULL`,
  ],
  down: [
    'DROP INDEX messaging.message_logs_to_user_idx',
    'ALTER TABLE messaging.message_logs DROP COLUMN to_user_id',
  ],
});
