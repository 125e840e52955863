import { sqlMigration } from '@bm/platform';

/**
 * Customers without a phone number (CONTRACT.md, the network of late 2026): a customer's message may name them
 * by business-scoped user id only, so an inbound message keeps `from_user_id` and `username` beside a phone that
 * may be absent. Existing rows keep their phone; the new columns are null (nothing rewritten).
 */
export const CustomersByUserId1766000000001 = sqlMigration('CustomersByUserId1766000000001', {
  up: [
    `ALTER TABLE messaging.inbound_messages ALTER COLUMN from_phone DROP NOT NULL,
       ADD COLUMN from_user_id text, ADD COLUMN username text`,
  ],
  down: [
    `DELETE FROM messaging.inbound_messages WHERE from_phone IS NULL`,
    `ALTER TABLE messaging.inbound_messages ALTER COLUMN from_phone SET NOT NULL,
       DROP COLUMN from_user_id, DROP COLUMN username`,
  ],
});
