import { sqlMigration } from '@bm/platform';

/**
 * Customers without a phone number (CONTRACT.md, the network of late 2026). A recipient may be given by user id:
 * `phone` keeps the recipient's address (a phone's digits or the user id, the key of duplicates and opt-outs) and
 * `user_id` says it is one. An opt-out's `phone` is likewise an address. A customer whose message named their phone
 * and their user id is one customer from then on: the link below, so an opt-out of one address covers the other.
 * Existing rows are recipients and opt-outs by phone (user_id null); nothing is rewritten.
 */
export const CustomersByUserId1766000000000 = sqlMigration('CustomersByUserId1766000000000', {
  up: [
    'ALTER TABLE campaign.recipients ADD COLUMN user_id text',
    `CREATE TABLE campaign.customer_links (
       tenant_id integer NOT NULL,
       user_id text NOT NULL,
       phone text NOT NULL,
       linked_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (tenant_id, user_id)
     )`,
    'CREATE INDEX customer_links_phone_idx ON campaign.customer_links (tenant_id, phone)',
  ],
  down: ['DROP TABLE campaign.customer_links', 'ALTER TABLE campaign.recipients DROP COLUMN user_id'],
});
