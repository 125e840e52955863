import { sqlMigration } from '@bm/platform';

/**
 * Status reports and customer messages split on receipt go to the broker before the answer, confirmed, and their
 * audit row is the one write (issue 36): no outbox row and no dedupe row. The row keeps the event id each item
 * went out with, by dedupe key, for the audit view. Nullable without a default: adding it rewrites nothing, and
 * the previous release's pods, which never write it, keep working during a rollout.
 */
export const ItemsSentOnReceipt1767200000000 = sqlMigration('ItemsSentOnReceipt1767200000000', {
  up: ['ALTER TABLE ingress.inbound_events ADD COLUMN sent_items jsonb'],
  down: ['ALTER TABLE ingress.inbound_events DROP COLUMN sent_items'],
});
