import { sqlMigration } from '@bm/platform';

/**
 * A customer's latest choice about marketing, by address (a phone's digits or a user id): when they chose it (the
 * upstream's seconds) and when we received it. A stop or resume arrives by two roads (ingress applies a stop before
 * its answer, and the same stop comes again through messaging) and by concurrent consumers, so copies may arrive
 * after a later choice; a choice older than, or the same as, the one kept here changes nothing. Customers who
 * chose before this table know no order; their next choice is applied as before and starts it.
 */
export const CustomerChoices1766400000000 = sqlMigration('CustomerChoices1766400000000', {
  up: [
    `CREATE TABLE campaign.customer_choices (
       tenant_id integer NOT NULL,
       address text NOT NULL,
       chosen_at timestamptz NOT NULL,
       received_at timestamptz NOT NULL,
       PRIMARY KEY (tenant_id, address)
     )`,
  ],
  down: ['DROP TABLE campaign.customer_choices'],
});
