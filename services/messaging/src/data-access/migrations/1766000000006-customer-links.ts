import { sqlMigration } from '@bm/platform';

/**
 * A customer known by both addresses (CONTRACT.md, the network of late 2026): when a message of theirs names their
 * phone and their business-scoped user id, the two are one customer from then on. A user id belongs to one phone
 * (a new number brings a new user id); the phone index finds the user ids a phone is known by.
 */
export const CustomerLinks1766000000006 = sqlMigration('CustomerLinks1766000000006', {
  up: [
    `CREATE TABLE messaging.customer_links (
       tenant_id integer NOT NULL,
       user_id text NOT NULL,
       phone text NOT NULL,
       linked_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (tenant_id, user_id)
     )`,
    `CREATE INDEX customer_links_phone_idx ON messaging.customer_links (tenant_id, phone)`,
  ],
  down: ['DROP TABLE messaging.customer_links'],
});
